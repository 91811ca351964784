package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// This file serves Ombi's Identity and Hub controllers: read_users,
// write_user_preferences and write_user_manage.

const unitUsers = "users"

// Output types of the user_page family.
type (
	userPage struct {
		Kind  string       `json:"kind"` // "user_page"
		Items []userRecord `json:"items"`
		Page  paging       `json:"page"`
	}
	// userRecord holds only the id, names and non-secret language,
	// country and online state: never e-mail, claims, tokens or quotas.
	userRecord struct {
		ID               string `json:"id"`
		UserName         string `json:"user_name,omitempty"`
		Alias            string `json:"alias,omitempty"`
		Language         string `json:"language,omitempty"`
		StreamingCountry string `json:"streaming_country,omitempty"`
		Online           *bool  `json:"online,omitempty"`
	}
)

func newUserPage(items []userRecord, pg paging) userPage {
	if items == nil {
		items = []userRecord{}
	}
	return userPage{Kind: "user_page", Items: items, Page: pg}
}

// ---- client methods ----

// self reads the calling principal.
//
// upstream: GET /api/v1/Identity
func (c *ombiClient) self(ctx context.Context) (wireUser, error) {
	w, err := send[wireUser](ctx, c, http.MethodGet, "api/v1/Identity", nil)
	if err == nil && strings.TrimSpace(w.ID) == "" {
		// Every caller has an account; a 200 body without an id is an
		// unknown shape, and never evidence about the caller's roles.
		return w, &schemaError{Op: "GET /api/v1/Identity", Reason: "user record without an id"}
	}
	return w, err
}

// user reads one user (an unknown id answers 500 upstream).
//
// upstream: GET /api/v1/Identity/User/{id}
func (c *ombiClient) user(ctx context.Context, id string) (wireUser, error) {
	return send[wireUser](ctx, c, http.MethodGet, "api/v1/Identity/User/"+seg(id), nil)
}

// users lists every non-system user.
//
// upstream: GET /api/v1/Identity/Users
func (c *ombiClient) users(ctx context.Context) ([]wireUser, error) {
	return send[[]wireUser](ctx, c, http.MethodGet, "api/v1/Identity/Users", nil)
}

// userDropdown lists users as {id, username, email}.
//
// upstream: GET /api/v1/Identity/dropdown/Users
func (c *ombiClient) userDropdown(ctx context.Context) ([]wireUser, error) {
	return send[[]wireUser](ctx, c, http.MethodGet, "api/v1/Identity/dropdown/Users", nil)
}

// claims lists every role claim.
//
// upstream: GET /api/v1/Identity/claims
func (c *ombiClient) claims(ctx context.Context) ([]wireClaim, error) {
	return send[[]wireClaim](ctx, c, http.MethodGet, "api/v1/Identity/claims", nil)
}

// onlineUsers lists the users connected to the hub.
//
// upstream: GET /api/v2/Hub/Users
func (c *ombiClient) onlineUsers(ctx context.Context) ([]wireHubUser, error) {
	return send[[]wireHubUser](ctx, c, http.MethodGet, "api/v2/Hub/Users", nil)
}

// preferences lists notification preferences of the caller ("") or of a
// user.
//
// upstream: GET /api/v1/Identity/notificationpreferences
// upstream: GET /api/v1/Identity/notificationpreferences/{userId}
func (c *ombiClient) preferences(ctx context.Context, userID string) ([]wirePreference, error) {
	rel := "api/v1/Identity/notificationpreferences"
	if userID != "" {
		rel += "/" + seg(userID)
	}
	return send[[]wirePreference](ctx, c, http.MethodGet, rel, nil)
}

// setLanguage sets the caller's language; the answer is an empty 200.
//
// upstream: POST /api/v1/Identity/language
func (c *ombiClient) setLanguage(ctx context.Context, lang string) error {
	return sendDiscard(ctx, c, http.MethodPost, "api/v1/Identity/language", languageBody{Lang: lang})
}

// setStreamingCountry sets the caller's streaming country; empty 200.
//
// upstream: POST /api/v1/Identity/streamingcountry
func (c *ombiClient) setStreamingCountry(ctx context.Context, code string) error {
	return sendDiscard(ctx, c, http.MethodPost, "api/v1/Identity/streamingcountry", countryBody{Code: code})
}

// newsletterUnsubscribe removes a user's newsletter role (a mutating GET
// answering an empty 200).
//
// upstream: GET /api/v1/Identity/newsletter/unsubscribe/{userId}
func (c *ombiClient) newsletterUnsubscribe(ctx context.Context, userID string) error {
	return sendDiscard(ctx, c, http.MethodGet, "api/v1/Identity/newsletter/unsubscribe/"+seg(userID), nil)
}

// deleteUser deletes a user.
//
// upstream: DELETE /api/v1/Identity/{userId}
func (c *ombiClient) deleteUser(ctx context.Context, userID string) (wireIdentityResult, error) {
	return send[wireIdentityResult](ctx, c, http.MethodDelete, "api/v1/Identity/"+seg(userID), nil)
}

// welcomeEmail sends the welcome e-mail to a loaded user; empty 200.
//
// upstream: POST /api/v1/Identity/welcomeEmail
func (c *ombiClient) welcomeEmail(ctx context.Context, u welcomeUser) error {
	return sendDiscard(ctx, c, http.MethodPost, "api/v1/Identity/welcomeEmail", u)
}

// sendDiscard sends one call whose answer body is read, bounded, and
// ignored (Ombi's empty 200 answers).
func sendDiscard(ctx context.Context, c *ombiClient, method, relPath string, body any) error {
	req, err := c.newRequest(ctx, method, relPath, body)
	if err != nil {
		return err
	}
	return c.do(req, nil)
}

// ---- wire shapes ----

type (
	wireUser struct {
		ID               string      `json:"id"`
		UserName         string      `json:"userName"`
		Username         string      `json:"username"` // dropdown spelling
		Alias            string      `json:"alias"`
		Language         string      `json:"language"`
		StreamingCountry string      `json:"streamingCountry"`
		UserType         *int        `json:"userType"`
		EmailAddress     string      `json:"emailAddress"`
		Claims           []wireClaim `json:"claims"`
	}
	wireClaim struct {
		Value   string `json:"value"`
		Enabled bool   `json:"enabled"`
	}
	wireHubUser struct {
		UserID      string `json:"userId"`
		DisplayName string `json:"displayName"`
	}
	wirePreference struct {
		Agent   *int  `json:"agent"`
		Enabled *bool `json:"enabled"`
	}
	wireIdentityResult struct {
		Successful bool     `json:"successful"`
		Errors     []string `json:"errors"`
	}
	languageBody struct {
		Lang string `json:"lang"`
	}
	countryBody struct {
		Code string `json:"code"`
	}
	// welcomeUser is the minimal UserViewModel the welcome e-mail needs,
	// built from the privately loaded user; never from tool input.
	welcomeUser struct {
		ID           string      `json:"id"`
		UserName     string      `json:"userName"`
		Alias        string      `json:"alias"`
		EmailAddress string      `json:"emailAddress"`
		UserType     *int        `json:"userType,omitempty"`
		Claims       []wireClaim `json:"claims"`
	}
)

func projectUser(w *wireUser) (userRecord, bool) {
	id := strings.TrimSpace(w.ID)
	if id == "" {
		return userRecord{}, false
	}
	name := w.UserName
	if name == "" {
		name = w.Username
	}
	return userRecord{ID: id, UserName: name, Alias: w.Alias, Language: w.Language, StreamingCountry: w.StreamingCountry}, true
}

func projectUsers(ws []wireUser) []userRecord {
	out := make([]userRecord, 0, len(ws))
	for i := range ws {
		if r, ok := projectUser(&ws[i]); ok {
			out = append(out, r)
		}
	}
	return out
}

// Role claims of Ombi that grant privileged reads.
const (
	roleAdmin     = "Admin"
	rolePowerUser = "PowerUser"
)

// callerHas reports whether the calling principal holds one of roles. An
// API key without a UserName header authenticates Ombi's API principal,
// which holds Admin and ApiUser (the ApiKey middleware) although its seeded
// account lists no role claims; any other caller is judged by its claims.
func (c *ombiClient) callerHas(me *wireUser, roles ...string) bool {
	if c.mode == AuthAPIKey && c.userName == "" {
		return slices.Contains(roles, roleAdmin)
	}
	return me.has(roles...)
}

func (w *wireUser) has(roles ...string) bool {
	for _, c := range w.Claims {
		if c.Enabled && slices.Contains(roles, c.Value) {
			return true
		}
	}
	return false
}

// forbidden is a call-time authorization refusal (RT-BRANCH-AUTH).
func forbidden(msg string) error {
	return &apiError{Status: http.StatusForbidden, Message: msg}
}

// ---- read_users ----

type usersInput struct {
	Action string   `json:"action"`
	UserID string   `json:"user_id"`
	Page   *pageArg `json:"page"`
}

// readUsers serves read_users. The preferences routes are anonymous
// upstream, so another user's preferences are checked here: the caller
// must be a power user or an administrator.
// Implements S-ROUTING-0219, S-ROUTING-0220 and S-RESULTS-0065, S-RESULTS-0094.
func readUsers(d *deps) tool {
	return tool{name: "read_users", handle: func(ctx context.Context, c *call) (any, error) {
		var in usersInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		switch in.Action {
		case "self", "get":
			var (
				w   wireUser
				err error
			)
			if in.Action == "self" {
				w, err = cl.self(ctx)
			} else {
				w, err = cl.user(ctx, in.UserID)
			}
			if err != nil {
				return nil, err
			}
			r, ok := projectUser(&w)
			if !ok {
				// A 200 body without a user id is not a user record: an
				// unknown shape, not a missing one (a missing one is a 204).
				return nil, &schemaError{Op: "GET /api/v1/Identity/User/{id}", Reason: "user record without an id"}
			}
			return newUserPage([]userRecord{r}, singlePage(1, unitUsers)), nil
		case "list", "dropdown":
			var (
				ws  []wireUser
				err error
			)
			if in.Action == "list" {
				ws, err = cl.users(ctx)
			} else {
				ws, err = cl.userDropdown(ctx)
			}
			if err != nil {
				return nil, err
			}
			window, pg := localPage(projectUsers(ws), in.Page, true, unitUsers)
			return newUserPage(window, pg), nil
		case "online":
			ws, err := cl.onlineUsers(ctx)
			if err != nil {
				return nil, err
			}
			var all []userRecord
			for _, w := range ws {
				if id := strings.TrimSpace(w.UserID); id != "" {
					all = append(all, userRecord{ID: id, UserName: w.DisplayName, Online: ptr(true)})
				}
			}
			window, pg := localPage(all, in.Page, true, unitUsers)
			return newUserPage(window, pg), nil
		case "claims":
			ws, err := cl.claims(ctx)
			if err != nil {
				return nil, err
			}
			var refs []reference
			for _, w := range ws {
				if v := strings.TrimSpace(w.Value); v != "" {
					refs = append(refs, reference{ID: v, Name: v, Value: v, Category: "claim"})
				}
			}
			window, pg := localPage(refs, in.Page, true, unitReferences)
			return newReferencePage(window, pg), nil
		case "preferences":
			if in.UserID != "" {
				me, err := cl.self(readOnly(ctx))
				if err != nil {
					return nil, err
				}
				if me.ID != in.UserID && !cl.callerHas(&me, roleAdmin, rolePowerUser) {
					return nil, forbidden("reading another user's notification preferences needs the PowerUser or Admin role")
				}
			}
			ws, err := cl.preferences(ctx, in.UserID)
			if err != nil {
				return nil, err
			}
			var refs []reference
			for _, w := range ws {
				if w.Agent == nil || w.Enabled == nil || !*w.Enabled {
					continue
				}
				r := reference{ID: strconv.Itoa(*w.Agent), Value: *w.Agent, Category: "notification_agent"}
				label, ok := enumLabel(c, enumNotificationAgent, "agent", *w.Agent)
				if ok {
					r.Name = label
				} else {
					r.Name = r.ID
				}
				refs = append(refs, r)
			}
			window, pg := localPage(refs, in.Page, true, unitReferences)
			return newReferencePage(window, pg), nil
		}
		return nil, &unsupportedError{Message: "read_users: unknown branch"}
	}}
}

// ---- write_user_preferences ----

type userPreferencesInput struct {
	Action   string `json:"action"`
	Language string `json:"language"`
	Country  string `json:"country"`
	UserID   string `json:"user_id"`
}

// writeUserPreferences serves write_user_preferences: language and
// streaming country for the caller only; newsletter opt-out for the caller
// or, by an administrator, for another user.
// Implements S-ROUTING-0222 to S-ROUTING-0226.
func writeUserPreferences(d *deps) tool {
	return tool{name: "write_user_preferences", handle: func(ctx context.Context, c *call) (any, error) {
		var in userPreferencesInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		m := completed()
		switch in.Action {
		case "language":
			if err := cl.setLanguage(ctx, in.Language); err != nil {
				return nil, err
			}
		case "streaming_country":
			codes, err := cl.streamingCountries(readOnly(ctx))
			if err != nil {
				return nil, err
			}
			if !slices.Contains(codes, in.Country) {
				return nil, &argumentError{Field: "/country", Message: fmt.Sprintf("%q is not a streaming country upstream knows", in.Country)}
			}
			if err := cl.setStreamingCountry(ctx, in.Country); err != nil {
				return nil, err
			}
		case "newsletter_opt_out":
			me, err := cl.self(readOnly(ctx))
			if err != nil {
				return nil, err
			}
			if me.ID != in.UserID && !cl.callerHas(&me, roleAdmin) {
				return nil, forbidden("opting another user out of the newsletter needs the Admin role")
			}
			if err := cl.newsletterUnsubscribe(ctx, in.UserID); err != nil {
				return nil, err
			}
			m.UserID = in.UserID
		default:
			return nil, &unsupportedError{Message: "write_user_preferences: unknown branch"}
		}
		return m, nil
	}}
}

// ---- write_user_manage ----

type userManageInput struct {
	Action string `json:"action"`
	UserID string `json:"user_id"`
}

// writeUserManage serves write_user_manage. It refuses to act on the
// caller itself or on a system user (the Api user); the welcome e-mail's
// user model is loaded privately, never taken from the input.
// Implements S-ROUTING-0227, S-ROUTING-0228, S-ROUTING-0229.
func writeUserManage(d *deps) tool {
	return tool{name: "write_user_manage", handle: func(ctx context.Context, c *call) (any, error) {
		var in userManageInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		me, err := cl.self(readOnly(ctx))
		if err != nil {
			return nil, err
		}
		if me.ID == in.UserID {
			return nil, forbidden("write_user_manage never acts on the calling user")
		}
		u, err := cl.user(readOnly(ctx), in.UserID)
		if err != nil {
			return nil, err
		}
		if (u.UserType != nil && *u.UserType == 0) || strings.EqualFold(u.UserName, "Api") {
			return nil, forbidden("write_user_manage never acts on a system user")
		}
		m := completed()
		m.UserID = in.UserID
		switch in.Action {
		case "delete":
			res, err := cl.deleteUser(ctx, in.UserID)
			if err != nil {
				return nil, err
			}
			if !res.Successful {
				msg := ""
				if len(res.Errors) > 0 {
					msg = sanitizeMessage(res.Errors[0], cl.secrets()...)
				}
				return nil, &businessError{Message: msg}
			}
			m.UpstreamResult = ptr(true)
		case "welcome_email":
			err := cl.welcomeEmail(ctx, welcomeUser{
				ID: u.ID, UserName: u.UserName, Alias: u.Alias, EmailAddress: u.EmailAddress,
				UserType: u.UserType, Claims: nonNilClaims(u.Claims),
			})
			if err != nil {
				return nil, err
			}
			c.warn("completed means upstream accepted the e-mail for sending, not that it was delivered")
		default:
			return nil, &unsupportedError{Message: "write_user_manage: unknown branch"}
		}
		return m, nil
	}}
}

func nonNilClaims(cs []wireClaim) []wireClaim {
	if cs == nil {
		return []wireClaim{}
	}
	return cs
}
