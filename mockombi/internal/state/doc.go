// Package state holds the mock's Ombi state as typed data: the entities
// the mock stores (with the member names of its data documents, which are
// Ombi's wire names) and the views its answers are built from (with the
// member names of Ombi's view models and entities as Ombi serialises them).
//
// A view's members are written in the order of their wire names, sorted:
// encoding/json writes a map's members sorted by name, and the mock's
// answers were built as maps, so the sorted order keeps every answer byte
// for byte as it was. A flat view declares its fields in that order, as
// encoding/json writes a struct's fields in declaration order. A view
// that embeds a shared part (BaseRequest, SearchViewModel), leaves out an
// empty omitempty member or carries undocumented members (an Extra) is
// written by marshalWith, which sorts all its members together. Members gives a
// view's members by wire name, as the map it stands for.
//
// The settings documents (Ombi's settings models, settings.go) are each a
// Document: written back as they were saved, members a body left out
// left out and members Ombi's model lacks kept as posted (document.go).
//
// Nothing here locks: the mock's store guards this state with its lock.
package state
