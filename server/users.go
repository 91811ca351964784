package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
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

// ---- projections ----

func projectUser(w *ombi.User) (userRecord, bool) {
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

func projectUsers(ws []ombi.User) []userRecord {
	out := make([]userRecord, 0, len(ws))
	for i := range ws {
		if r, ok := projectUser(&ws[i]); ok {
			out = append(out, r)
		}
	}
	return out
}

// forbidden is a call-time authorization refusal (RT-BRANCH-AUTH).
func forbidden(msg string) error {
	return &ombi.APIError{Status: http.StatusForbidden, Message: msg}
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
				w   ombi.User
				err error
			)
			if in.Action == "self" {
				w, err = cl.Self(ctx)
			} else {
				w, err = cl.User(ctx, in.UserID)
			}
			if err != nil {
				return nil, err
			}
			r, ok := projectUser(&w)
			if !ok {
				// A 200 body without a user id is not a user record: an
				// unknown shape, not a missing one (a missing one is a 204).
				return nil, &ombi.SchemaError{Op: "GET /api/v1/Identity/User/{id}", Reason: "user record without an id"}
			}
			return newUserPage([]userRecord{r}, singlePage(1, unitUsers)), nil
		case "list", "dropdown":
			var (
				ws  []ombi.User
				err error
			)
			if in.Action == "list" {
				ws, err = cl.Users(ctx)
			} else {
				ws, err = cl.UserDropdown(ctx)
			}
			if err != nil {
				return nil, err
			}
			window, pg := localPage(projectUsers(ws), in.Page, true, unitUsers)
			return newUserPage(window, pg), nil
		case "online":
			ws, err := cl.OnlineUsers(ctx)
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
			ws, err := cl.Claims(ctx)
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
				me, err := cl.Self(ombi.ReadOnly(ctx))
				if err != nil {
					return nil, err
				}
				if me.ID != in.UserID && !cl.CallerHas(&me, ombi.RoleAdmin, ombi.RolePowerUser) {
					return nil, forbidden("reading another user's notification preferences needs the PowerUser or Admin role")
				}
			}
			ws, err := cl.Preferences(ctx, in.UserID)
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
			if err := cl.SetLanguage(ctx, in.Language); err != nil {
				return nil, err
			}
		case "streaming_country":
			codes, err := cl.StreamingCountries(ombi.ReadOnly(ctx))
			if err != nil {
				return nil, err
			}
			if !slices.Contains(codes, in.Country) {
				return nil, &ombi.ArgumentError{Field: "/country", Message: fmt.Sprintf("%q is not a streaming country upstream knows", in.Country)}
			}
			if err := cl.SetStreamingCountry(ctx, in.Country); err != nil {
				return nil, err
			}
		case "newsletter_opt_out":
			me, err := cl.Self(ombi.ReadOnly(ctx))
			if err != nil {
				return nil, err
			}
			if me.ID != in.UserID && !cl.CallerHas(&me, ombi.RoleAdmin) {
				return nil, forbidden("opting another user out of the newsletter needs the Admin role")
			}
			if err := cl.NewsletterUnsubscribe(ctx, in.UserID); err != nil {
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
		me, err := cl.Self(ombi.ReadOnly(ctx))
		if err != nil {
			return nil, err
		}
		if me.ID == in.UserID {
			return nil, forbidden("write_user_manage never acts on the calling user")
		}
		u, err := cl.User(ombi.ReadOnly(ctx), in.UserID)
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
			res, err := cl.DeleteUser(ctx, in.UserID)
			if err != nil {
				return nil, err
			}
			if !res.Successful {
				msg := ""
				if len(res.Errors) > 0 {
					msg = sanitizeMessage(res.Errors[0], cl.Secrets()...)
				}
				return nil, &ombi.BusinessError{Message: msg}
			}
			m.UpstreamResult = ptr(true)
		case "welcome_email":
			err := cl.WelcomeEmail(ctx, ombi.WelcomeUser{
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

func nonNilClaims(cs []ombi.Claim) []ombi.Claim {
	if cs == nil {
		return []ombi.Claim{}
	}
	return cs
}
