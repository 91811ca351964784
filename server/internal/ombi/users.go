package ombi

import (
	"context"
	"net/http"
	"slices"
	"strings"
)

// Self reads the calling principal.
//
// upstream: GET /api/v1/Identity
func (c *Client) Self(ctx context.Context) (User, error) {
	w, err := send[User](ctx, c, http.MethodGet, "api/v1/Identity", nil)
	if err == nil && strings.TrimSpace(w.ID) == "" {
		// Every caller has an account; a 200 body without an id is an
		// unknown shape, and never evidence about the caller's roles.
		return w, &SchemaError{Op: "GET /api/v1/Identity", Reason: "user record without an id"}
	}
	return w, err
}

// User reads one user (an unknown id answers 500 upstream).
//
// upstream: GET /api/v1/Identity/User/{id}
func (c *Client) User(ctx context.Context, id string) (User, error) {
	return send[User](ctx, c, http.MethodGet, "api/v1/Identity/User/"+seg(id), nil)
}

// Users lists every non-system user.
//
// upstream: GET /api/v1/Identity/Users
func (c *Client) Users(ctx context.Context) ([]User, error) {
	return send[[]User](ctx, c, http.MethodGet, "api/v1/Identity/Users", nil)
}

// UserDropdown lists users as {id, username, email}.
//
// upstream: GET /api/v1/Identity/dropdown/Users
func (c *Client) UserDropdown(ctx context.Context) ([]User, error) {
	return send[[]User](ctx, c, http.MethodGet, "api/v1/Identity/dropdown/Users", nil)
}

// Claims lists every role claim.
//
// upstream: GET /api/v1/Identity/claims
func (c *Client) Claims(ctx context.Context) ([]Claim, error) {
	return send[[]Claim](ctx, c, http.MethodGet, "api/v1/Identity/claims", nil)
}

// OnlineUsers lists the users connected to the hub.
//
// upstream: GET /api/v2/Hub/Users
func (c *Client) OnlineUsers(ctx context.Context) ([]HubUser, error) {
	return send[[]HubUser](ctx, c, http.MethodGet, "api/v2/Hub/Users", nil)
}

// Preferences lists notification preferences of the caller ("") or of a
// User.
//
// upstream: GET /api/v1/Identity/notificationpreferences
// upstream: GET /api/v1/Identity/notificationpreferences/{userId}
func (c *Client) Preferences(ctx context.Context, userID string) ([]Preference, error) {
	rel := "api/v1/Identity/notificationpreferences"
	if userID != "" {
		rel += "/" + seg(userID)
	}
	return send[[]Preference](ctx, c, http.MethodGet, rel, nil)
}

// SetLanguage sets the caller's language; the answer is an empty 200.
//
// upstream: POST /api/v1/Identity/language
func (c *Client) SetLanguage(ctx context.Context, lang string) error {
	return sendDiscard(ctx, c, http.MethodPost, "api/v1/Identity/language", LanguageBody{Lang: lang})
}

// SetStreamingCountry sets the caller's streaming country; empty 200.
//
// upstream: POST /api/v1/Identity/streamingcountry
func (c *Client) SetStreamingCountry(ctx context.Context, code string) error {
	return sendDiscard(ctx, c, http.MethodPost, "api/v1/Identity/streamingcountry", CountryBody{Code: code})
}

// NewsletterUnsubscribe removes a user's newsletter role (a mutating GET
// answering an empty 200).
//
// upstream: GET /api/v1/Identity/newsletter/unsubscribe/{userId}
func (c *Client) NewsletterUnsubscribe(ctx context.Context, userID string) error {
	return sendDiscard(ctx, c, http.MethodGet, "api/v1/Identity/newsletter/unsubscribe/"+seg(userID), nil)
}

// DeleteUser deletes a user.
//
// upstream: DELETE /api/v1/Identity/{userId}
func (c *Client) DeleteUser(ctx context.Context, userID string) (IdentityResult, error) {
	return send[IdentityResult](ctx, c, http.MethodDelete, "api/v1/Identity/"+seg(userID), nil)
}

// WelcomeEmail sends the welcome e-mail to a loaded user; empty 200.
//
// upstream: POST /api/v1/Identity/welcomeEmail
func (c *Client) WelcomeEmail(ctx context.Context, u WelcomeUser) error {
	return sendDiscard(ctx, c, http.MethodPost, "api/v1/Identity/welcomeEmail", u)
}

type (
	User struct {
		ID               string  `json:"id"`
		UserName         string  `json:"userName"`
		Username         string  `json:"username"` // dropdown spelling
		Alias            string  `json:"alias"`
		Language         string  `json:"language"`
		StreamingCountry string  `json:"streamingCountry"`
		UserType         *int    `json:"userType"`
		EmailAddress     string  `json:"emailAddress"`
		Claims           []Claim `json:"claims"`
	}
	Claim struct {
		Value   string `json:"value"`
		Enabled bool   `json:"enabled"`
	}
	HubUser struct {
		UserID      string `json:"userId"`
		DisplayName string `json:"displayName"`
	}
	Preference struct {
		Agent   *int  `json:"agent"`
		Enabled *bool `json:"enabled"`
	}
	IdentityResult struct {
		Successful bool     `json:"successful"`
		Errors     []string `json:"errors"`
	}
	LanguageBody struct {
		Lang string `json:"lang"`
	}
	CountryBody struct {
		Code string `json:"code"`
	}
	// WelcomeUser is the minimal UserViewModel the welcome e-mail needs,
	// built from the privately loaded user; never from tool input.
	WelcomeUser struct {
		ID           string  `json:"id"`
		UserName     string  `json:"userName"`
		Alias        string  `json:"alias"`
		EmailAddress string  `json:"emailAddress"`
		UserType     *int    `json:"userType,omitempty"`
		Claims       []Claim `json:"claims"`
	}
)

// Role claims of Ombi that grant privileged reads.
const (
	RoleAdmin     = "Admin"
	RolePowerUser = "PowerUser"
)

// CallerHas reports whether the calling principal holds one of roles. An
// API key without a UserName header authenticates Ombi's API principal,
// which holds Admin and ApiUser (the ApiKey middleware) although its seeded
// account lists no role claims; any other caller is judged by its claims.
func (c *Client) CallerHas(me *User, roles ...string) bool {
	if c.mode == AuthAPIKey && c.userName == "" {
		return slices.Contains(roles, RoleAdmin)
	}
	return me.has(roles...)
}

func (w *User) has(roles ...string) bool {
	for _, c := range w.Claims {
		if c.Enabled && slices.Contains(roles, c.Value) {
			return true
		}
	}
	return false
}
