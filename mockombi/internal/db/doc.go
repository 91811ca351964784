// Package db is the mock's Ombi database: the entities it stores (users,
// requests, the media catalogue, settings, logs), the seed they load from
// (the built-in data sets or a data document), the data document format
// with its checks and the state export, and the Store that keeps it all
// behind one lock.
//
// Its types carry the member names of the data documents, which are
// Ombi's wire names. The views the answers are built from live in package
// state; the HTTP handlers in package mockombi read and change a Store
// inside its Read and Write. The recorded answers and the stubs a data
// document carries are the HTTP layer's: it checks them and builds their
// live sets through Served, and the Store keeps those with the rest of its
// data.
package db
