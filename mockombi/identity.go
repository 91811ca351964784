package mockombi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// preferenceAgents are the agents Ombi creates default preferences for:
// every NotificationAgent except Email (0), Mobile (7) and Webhook (9).
var preferenceAgents = []int{1, 2, 3, 4, 5, 6, 8, 10, 11}

// zeroAccessToken is what accesstoken answers when there is no user.
const zeroAccessToken = "00000000000000000000000000000000"

// preferencesFor is GetPreferences: the saved preferences of a user, then an
// unsaved default (id 0, no value, disabled) for every other agent except
// Email, Mobile and Webhook.
func (st *store) preferencesFor(a *db.Account) []*state.UserNotificationPreferences {
	saved := st.Identity.Prefs[strings.ToLower(a.UserName)]
	out := make([]*state.UserNotificationPreferences, 0, len(preferenceAgents))
	for _, p := range saved {
		out = append(out, &state.UserNotificationPreferences{ID: p.ID, UserID: a.ID, Agent: p.Agent, Enabled: p.Enabled, Value: db.NilIfEmpty(p.Value)})
	}
	for _, agent := range preferenceAgents {
		if !slices.ContainsFunc(saved, func(p *db.NotificationPref) bool { return p.Agent == agent }) {
			out = append(out, &state.UserNotificationPreferences{UserID: a.ID, Agent: agent})
		}
	}
	return out
}

// userViewModel projects an account as UserViewModel.
func (st *store) userViewModel(a *db.Account) *state.UserViewModel {
	// The user's roles come first (enabled), then every other role.
	claims := make([]state.ClaimCheckboxes, 0, len(db.AllOmbiRoles))
	for _, role := range a.Roles {
		claims = append(claims, state.ClaimCheckboxes{Value: role, Enabled: true})
	}
	for _, role := range db.AllOmbiRoles {
		if !slices.Contains(a.Roles, role) {
			claims = append(claims, state.ClaimCheckboxes{Value: role})
		}
	}
	limitType := func(k string) any {
		if v, ok := a.Raw[k]; ok && v != nil {
			return v
		}
		return 1
	}
	quota := func(limit int) *state.RequestQuotaCountModel {
		if limit <= 0 {
			return nil
		}
		return &state.RequestQuotaCountModel{HasLimit: true, Limit: limit, Remaining: limit, NextRequest: st.Now().UTC()}
	}
	return &state.UserViewModel{
		ID: a.ID, UserName: a.UserName, Alias: db.NilIfEmpty(a.Alias), Claims: claims,
		EmailAddress: db.NilIfEmpty(a.Email), LastLoggedIn: a.LastLoggedIn,
		Language: db.NilIfEmpty(a.Language), HasLoggedIn: a.LastLoggedIn != nil, UserType: a.UserType,
		MovieRequestLimit: a.MovieRequestLimit, EpisodeRequestLimit: a.EpisodeRequestLimit,
		MusicRequestLimit: a.MusicRequestLimit, StreamingCountry: db.NilIfEmpty(a.StreamingCountry),
		MovieRequestQuota: quota(a.MovieRequestLimit), EpisodeRequestQuota: quota(a.EpisodeRequestLimit),
		MusicRequestQuota:     quota(a.MusicRequestLimit),
		UserQualityProfiles:   state.UserQualityProfiles{UserID: a.ID},
		MovieRequestLimitType: limitType("movieRequestLimitType"), MusicRequestLimitType: limitType("musicRequestLimitType"),
		EpisodeRequestLimitType: limitType("episodeRequestLimitType"),
	}
}

// identityResult is an OmbiIdentityResult: errors stay null on success.
func identityResult(errs ...string) *state.OmbiIdentityResult {
	return &state.OmbiIdentityResult{Errors: errs, Successful: len(errs) == 0}
}

// nullReference is the message of a .NET NullReferenceException.
const nullReference = "Object reference not set to an instance of an object."

// identitySelf answers GET Identity with the caller's UserViewModel.
func (s *Server) identitySelf(w http.ResponseWriter, r *http.Request) {
	p := principalOf(r)
	var out *state.UserViewModel
	s.store.Read(func(st *store) {
		if a := st.Users.ByID(p.id); a != nil {
			out = st.userViewModel(a)
		}
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// identityUsers answers GET Identity/Users: every non-system user by name.
func (s *Server) identityUsers(w http.ResponseWriter, _ *http.Request) {
	var out []*state.UserViewModel
	s.store.Read(func(st *store) {
		out = []*state.UserViewModel{}
		for _, a := range st.sortedUsers() {
			out = append(out, st.userViewModel(a))
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// sortedUsers returns the non-system accounts ordered by user name.
func (st *store) sortedUsers() []*db.Account {
	var list []*db.Account
	for _, a := range st.Users.Accounts {
		if a.UserType != 0 {
			list = append(list, a)
		}
	}
	slices.SortFunc(list, func(x, y *db.Account) int { return strings.Compare(x.UserName, y.UserName) })
	return list
}

// identityDropdown answers GET Identity/dropdown/Users: {id, username, email}[].
func (s *Server) identityDropdown(w http.ResponseWriter, _ *http.Request) {
	var out []*state.UserViewModelDropdown
	s.store.Read(func(st *store) {
		out = []*state.UserViewModelDropdown{}
		for _, a := range st.sortedUsers() {
			out = append(out, &state.UserViewModelDropdown{ID: a.ID, Username: a.UserName, Email: db.NilIfEmpty(a.Email)})
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// identityUser answers GET Identity/User/{id}; an unknown id throws (500).
func (s *Server) identityUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var out *state.UserViewModel
	s.store.Read(func(st *store) {
		if a := st.Users.ByID(id); a != nil {
			out = st.userViewModel(a)
		}
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// userViewBody is the UserViewModel a client posts.
type userViewBody struct {
	ID           string `json:"id"`
	UserName     string `json:"userName"`
	Alias        string `json:"alias"`
	EmailAddress string `json:"emailAddress"`
	Password     string `json:"password"`
	Claims       []struct {
		Value   string `json:"value"`
		Enabled bool   `json:"enabled"`
	} `json:"claims"`
	Language            string `json:"language"`
	StreamingCountry    string `json:"streamingCountry"`
	MovieRequestLimit   int    `json:"movieRequestLimit"`
	EpisodeRequestLimit int    `json:"episodeRequestLimit"`
	MusicRequestLimit   int    `json:"musicRequestLimit"`
}

// roles returns the enabled claims.
func (b *userViewBody) roles() []string {
	out := []string{}
	for _, c := range b.Claims {
		if c.Enabled {
			out = append(out, c.Value)
		}
	}
	return out
}

// identityCreate answers POST Identity (create a local user).
func (s *Server) identityCreate(w http.ResponseWriter, r *http.Request) {
	var in userViewBody
	if !decodeBody(w, r, &in) {
		return
	}
	var res *state.OmbiIdentityResult
	s.store.Write(func(st *store) {
		switch {
		case in.UserName == "":
			res = identityResult("User name '' is invalid, can only contain letters or digits.")
		case st.Users.ByName(in.UserName) != nil:
			res = identityResult("Username '" + in.UserName + "' is already taken.")
		case len(in.Password) < 8:
			res = identityResult("Passwords must be at least 8 characters.")
		default:
			st.Users.Accounts = append(st.Users.Accounts, &db.Account{
				ID: db.StableUUID("created:" + in.UserName + ":" + strconv.Itoa(st.NextID("user"))), UserName: in.UserName,
				Email: in.EmailAddress, Alias: in.Alias, Password: in.Password, UserType: 1, Roles: in.roles(),
				Language: in.Language, StreamingCountry: in.StreamingCountry, MovieRequestLimit: in.MovieRequestLimit,
				EpisodeRequestLimit: in.EpisodeRequestLimit, MusicRequestLimit: in.MusicRequestLimit, Raw: map[string]any{},
			})
			res = identityResult()
		}
	})
	writeJSON(w, http.StatusOK, res)
}

// identityUpdate answers PUT Identity (update a user's profile and roles).
func (s *Server) identityUpdate(w http.ResponseWriter, r *http.Request) {
	var in userViewBody
	if !decodeBody(w, r, &in) {
		return
	}
	var res *state.OmbiIdentityResult
	s.store.Write(func(st *store) {
		a := st.Users.ByID(in.ID)
		if a == nil {
			res = identityResult("Could not find user")
			return
		}
		a.Alias, a.Email, a.Roles = in.Alias, in.EmailAddress, in.roles()
		a.MovieRequestLimit, a.EpisodeRequestLimit, a.MusicRequestLimit = in.MovieRequestLimit, in.EpisodeRequestLimit, in.MusicRequestLimit
		if in.StreamingCountry != "" {
			a.StreamingCountry = in.StreamingCountry
		}
		res = identityResult()
	})
	writeJSON(w, http.StatusOK, res)
}

// identityUpdateLocal answers PUT Identity/local (the caller's own email and
// password, checked against currentPassword).
func (s *Server) identityUpdateLocal(w http.ResponseWriter, r *http.Request) {
	var in struct {
		CurrentPassword    string `json:"currentPassword"`
		Password           string `json:"password"`
		ConfirmNewPassword string `json:"confirmNewPassword"`
		EmailAddress       string `json:"emailAddress"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	var res *state.OmbiIdentityResult
	s.store.Write(func(st *store) {
		a := st.Users.ByID(p.id)
		switch {
		case a == nil:
			res = identityResult("User not found")
		case in.CurrentPassword == "" || in.CurrentPassword != a.Password:
			res = identityResult("You need to provide your current password to make any changes")
		case in.Password != "" && in.Password != in.ConfirmNewPassword:
			res = identityResult("Passwords do not match")
		default:
			if in.Password != "" {
				a.Password = in.Password
			}
			if in.EmailAddress != "" {
				a.Email = in.EmailAddress
			}
			res = identityResult()
		}
	})
	writeJSON(w, http.StatusOK, res)
}

// identityDelete answers DELETE Identity/{userId} with OmbiIdentityResult.
func (s *Server) identityDelete(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("userId")
	p := principalOf(r)
	res := identityResult("Could not find user to delete.")
	s.store.Write(func(st *store) {
		a := st.Users.ByID(id)
		if a == nil {
			return
		}
		// Only admins may delete an admin (CanModifyUser).
		if slices.ContainsFunc(a.Roles, func(r string) bool { return strings.EqualFold(r, db.OmbiRoleAdmin) }) && !p.inRole(db.OmbiRoleAdmin) {
			res = identityResult("You do not have the correct permissions to delete this user")
			return
		}
		st.Users.Accounts = slices.DeleteFunc(st.Users.Accounts, func(x *db.Account) bool { return x == a })
		res = identityResult()
	})
	writeJSON(w, http.StatusOK, res)
}

// identityClaims answers GET Identity/claims: every role, not enabled.
func (s *Server) identityClaims(w http.ResponseWriter, _ *http.Request) {
	out := make([]state.ClaimCheckboxes, 0, len(db.AllOmbiRoles))
	for _, role := range db.AllOmbiRoles {
		out = append(out, state.ClaimCheckboxes{Value: role})
	}
	writeJSON(w, http.StatusOK, out)
}

// identityLanguage answers POST Identity/language {lang}: empty 200.
func (s *Server) identityLanguage(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Lang string `json:"lang"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	s.store.Write(func(st *store) {
		if a := st.Users.ByID(p.id); a != nil {
			a.Language = in.Lang
		}
	})
	okEmpty(w)
}

// identitySetStreamingCountry answers POST Identity/streamingcountry {code}.
func (s *Server) identitySetStreamingCountry(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code string `json:"code"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	s.store.Write(func(st *store) {
		if a := st.Users.ByID(p.id); a != nil {
			a.StreamingCountry = in.Code
		}
	})
	okEmpty(w)
}

// identityWelcomeEmail answers POST Identity/welcomeEmail: empty 200.
func (s *Server) identityWelcomeEmail(w http.ResponseWriter, r *http.Request) {
	var in userViewBody
	if !decodeBody(w, r, &in) {
		return
	}
	okEmpty(w)
}

// identityPreferences answers GET Identity/notificationpreferences[/{userId}]:
// the caller's (or the given user's) UserNotificationPreferences. The route
// is anonymous upstream: without a caller or with an unknown id it throws.
func (s *Server) identityPreferences(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("userId")
	if id == "" {
		if p := principalOf(r); p != nil {
			id = p.id
		}
	}
	var out []*state.UserNotificationPreferences
	s.store.Read(func(st *store) {
		if a := st.Users.ByID(id); a != nil {
			out = st.preferencesFor(a)
		}
	})
	if out == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// identitySetPreferences answers POST Identity/NotificationPreferences
// with true. Entries are applied in order, as upstream does: an unknown user
// stops with 404 and editing someone else without the PowerUser or Admin
// role in the caller's account stops with 401 (the API principal's account,
// the system user Api, has neither), keeping the earlier entries. Only the
// value of an existing preference changes; a new one starts disabled.
func (s *Server) identitySetPreferences(w http.ResponseWriter, r *http.Request) {
	var in []struct {
		Agent  int    `json:"agent"`
		UserID string `json:"userId"`
		Value  string `json:"value"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	p := principalOf(r)
	if p == nil {
		writeOmbiError(w, http.StatusInternalServerError, nullReference)
		return
	}
	status := http.StatusOK
	s.store.Write(func(st *store) {
		me := st.Users.ByID(p.id)
		for _, pref := range in {
			a := st.Users.ByID(pref.UserID)
			if a == nil {
				status = http.StatusNotFound
				return
			}
			if me == nil || (!strings.EqualFold(me.ID, a.ID) &&
				!slices.Contains(me.Roles, db.OmbiRolePowerUser) && !slices.Contains(me.Roles, db.OmbiRoleAdmin)) {
				status = http.StatusUnauthorized
				return
			}
			key := strings.ToLower(a.UserName)
			i := slices.IndexFunc(st.Identity.Prefs[key], func(x *db.NotificationPref) bool { return x.Agent == pref.Agent })
			if i >= 0 {
				st.Identity.Prefs[key][i].Value = pref.Value
				continue
			}
			st.Identity.Prefs[key] = append(st.Identity.Prefs[key],
				&db.NotificationPref{ID: st.NextID("notificationPreference"), Agent: pref.Agent, Value: pref.Value})
		}
	})
	switch status {
	case http.StatusNotFound:
		writeProblem(w, http.StatusNotFound)
	case http.StatusUnauthorized:
		writeProblem(w, http.StatusUnauthorized)
	default:
		writeJSON(w, http.StatusOK, true)
	}
}

// identityNewsletterUnsubscribe answers the anonymous, mutating GET
// Identity/newsletter/unsubscribe/{userId}: always an empty 200; a known
// user loses ReceivesNewsletter.
func (s *Server) identityNewsletterUnsubscribe(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("userId")
	s.store.Write(func(st *store) {
		if a := st.Users.ByID(id); a != nil {
			a.Roles = slices.DeleteFunc(slices.Clone(a.Roles), func(role string) bool { return role == "ReceivesNewsletter" })
		}
	})
	okEmpty(w)
}

// identityAccessToken answers GET Identity/accesstoken[/{userId}]: the
// user's access token as a JSON string, all zeros when there is no user.
func (s *Server) identityAccessToken(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("userId")
	if id == "" {
		if p := principalOf(r); p != nil {
			id = p.id
		}
	}
	tok := zeroAccessToken
	s.store.Read(func(st *store) {
		if a := st.Users.ByID(id); a != nil && a.UserAccessToken != "" {
			tok = a.UserAccessToken
		}
	})
	writeJSON(w, http.StatusOK, tok)
}

// identityStreamingCountries is GET /api/v1/Identity/streamingcountry.
func (s *Server) identityStreamingCountries(w http.ResponseWriter, r *http.Request) {
	out := []string{}
	s.store.Read(func(st *store) { out = append(out, st.Search.Ref.StreamingCountries...) })
	writeJSON(w, http.StatusOK, out)
}

// identityWizardUser is POST /api/v1/Identity/Wizard (anonymous): the
// wizard's first account. Ombi refuses once a local user (or more than one
// Plex user) exists, which the mock always has: SaveWizardResult
// {result: false, errors}.
func (s *Server) identityWizardUser(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	local, plex := 0, 0
	s.store.Read(func(st *store) {
		for _, a := range st.Users.Accounts {
			switch a.UserType {
			case 1:
				local++
			case 2:
				plex++
			}
		}
	})
	if local > 0 || plex > 1 {
		writeJSON(w, http.StatusOK, &state.SaveWizardResult{Errors: []string{"Looks like there is an existing user!"}})
		return
	}
	notModelled(w, "POST /api/v1/Identity/Wizard creating the first account (the data has no local user)")
}

// identityResetRequest is POST /api/v1/Identity/reset {email} (anonymous):
// the same OmbiIdentityResult whether or not the account exists (the reset
// mail goes nowhere).
func (s *Server) identityResetRequest(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	writeJSON(w, http.StatusOK, &state.OmbiIdentityResult{Successful: true, Errors: []string{"If this account exists you should recieve a password reset link."}})
}

// identityResetPassword is POST /api/v1/Identity/resetpassword {email, token,
// password} (anonymous): an unknown email is refused; the mock issues no
// reset tokens, so any token fails ASP.NET Identity's check.
func (s *Server) identityResetPassword(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	email, _ := db.FieldFold(in, "email").(string)
	var known bool
	s.store.Read(func(st *store) { known = st.Users.ByEmail(email) != nil })
	if !known {
		writeJSON(w, http.StatusOK, identityResult("Please check you email."))
		return
	}
	writeJSON(w, http.StatusOK, identityResult("Invalid token."))
}
