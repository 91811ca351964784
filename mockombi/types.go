package mockombi

import "github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"

// The types of Options and of a data document live with the state they
// describe, in the store's package; these are their names here.
type (
	// User is one login account (Options.Users): name, password and role.
	User = db.User
	// Canary is a planted secret and where it lives.
	Canary = db.Canary
	// Stub is a canned answer that a route gives instead of its own.
	Stub = db.Stub
	// Recording is one recorded Ombi answer, an entry of a data
	// document's "recordings".
	Recording = db.Recording
	// StateError is a data document that failed validation.
	StateError = db.StateError
)

// Role names accepted in User.Role.
const (
	RoleAdmin     = db.RoleAdmin
	RolePowerUser = db.RolePowerUser
	RoleUser      = db.RoleUser
)

// Data set names for Options.DataSet.
const (
	DataSetDefault = db.DataSetDefault
	DataSetLarge   = db.DataSetLarge
)
