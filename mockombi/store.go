package mockombi

import "github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"

// store is the mock's state (a db.Store) with the views and rules the
// handlers build on it: its methods in this package read and change the
// state inside Read and Write, which hand the store out under its lock.
type store struct{ *db.Store }

// Read runs fn under the read lock.
func (st *store) Read(fn func(st *store)) { st.Store.Read(func(*db.Store) { fn(st) }) }

// Write runs fn under the write lock.
func (st *store) Write(fn func(st *store)) { st.Store.Write(func(*db.Store) { fn(st) }) }
