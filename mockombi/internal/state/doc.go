// Package state holds the mock's Ombi state as typed data: the entities
// the mock stores (with the member names of its data documents, which are
// Ombi's wire names) and the views its answers are built from (with the
// member names of Ombi's view models and entities as Ombi serialises them).
//
// A view's fields are declared in the order of their wire names, sorted:
// encoding/json writes a struct's fields in declaration order and a map's
// members sorted by name, and the mock's answers were built as maps, so
// the sorted order keeps every answer byte for byte as it was. A record's
// undocumented members (an Extra) are merged in, in their sorted places,
// by marshalWith.
//
// Nothing here locks: the mock's store guards this state with its lock.
package state
