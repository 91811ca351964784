package db

// User is a login account of the mock.
type User struct {
	Username string
	Password string
	Role     string // "admin" | "power_user" | "user"
}

// Role names accepted in User.Role.
const (
	RoleAdmin     = "admin"
	RolePowerUser = "power_user"
	RoleUser      = "user"
)

// Canary is one planted secret: its name, its exact value and where it lives.
type Canary struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Where string `json:"where"`
}
