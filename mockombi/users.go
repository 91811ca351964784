package mockombi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"
)

// account is one Ombi user (OmbiUser). Login passwords come from Options;
// seed-only users (Plex, Emby, the system user) have none.
type account struct {
	ID                  string
	UserName            string
	Email               string
	Alias               string
	Password            string
	UserType            int
	Roles               []string
	Language            string
	StreamingCountry    string
	UserAccessToken     string
	MediaServerToken    string
	MovieRequestLimit   int
	EpisodeRequestLimit int
	MusicRequestLimit   int
	LastLoggedIn        *time.Time
	// Raw is the seed record, so undocumented fields survive projection.
	Raw map[string]any
}

// userState holds every account in seed order.
type userState struct {
	accounts []*account
}

// seedUser is the typed part of a users.json record.
type seedUser struct {
	ID                  string     `json:"id"`
	UserName            string     `json:"userName"`
	Email               string     `json:"email"`
	Alias               string     `json:"alias"`
	UserType            int        `json:"userType"`
	Roles               []string   `json:"roles"`
	Language            string     `json:"language"`
	StreamingCountry    string     `json:"streamingCountry"`
	UserAccessToken     string     `json:"userAccessToken"`
	MediaServerToken    string     `json:"mediaServerToken"`
	MovieRequestLimit   int        `json:"movieRequestLimit"`
	EpisodeRequestLimit int        `json:"episodeRequestLimit"`
	MusicRequestLimit   int        `json:"musicRequestLimit"`
	LastLoggedIn        *time.Time `json:"lastLoggedIn"`
}

// newUserState loads users.json, then makes sure every login account and the
// system user Api exist. A login whose name matches a seed record takes that
// record (and its planted secrets) with the login's password and role.
func newUserState(sd *seedSet, logins []User) (userState, error) {
	var raws []map[string]any
	if err := sd.decode("users.json", &raws); err != nil {
		return userState{}, err
	}
	var us userState
	defer func() {
		// Ombi also serialises normalizedEmail: the upper-cased email is a secret too
		for _, a := range us.accounts {
			if m := canaryPattern.FindString(a.Email); m != "" {
				sd.canaries = append(sd.canaries, Canary{Name: canaryName(m) + ".normalized", Value: strings.ToUpper(m),
					Where: "users: " + a.UserName + " normalizedEmail (OmbiUser)"})
			}
		}
	}()
	for _, raw := range raws {
		b, _ := json.Marshal(raw)
		var su seedUser
		if err := json.Unmarshal(b, &su); err != nil {
			return userState{}, fmt.Errorf("decode user %v: %w", raw["userName"], err)
		}
		acc := &account{
			ID: su.ID, UserName: su.UserName, Email: su.Email, Alias: su.Alias, UserType: su.UserType,
			Roles: su.Roles, Language: su.Language, StreamingCountry: su.StreamingCountry,
			UserAccessToken: su.UserAccessToken, MediaServerToken: su.MediaServerToken,
			MovieRequestLimit: su.MovieRequestLimit, EpisodeRequestLimit: su.EpisodeRequestLimit,
			MusicRequestLimit: su.MusicRequestLimit, LastLoggedIn: su.LastLoggedIn, Raw: raw,
		}
		// a data document's user may carry a login password; it never
		// reaches an answer
		if pw, ok := raw["password"].(string); ok {
			acc.Password = pw
		}
		delete(raw, "password")
		us.accounts = append(us.accounts, acc)
	}
	for _, l := range logins {
		acc := us.byName(l.Username)
		if acc == nil {
			acc = &account{
				ID:              stableUUID("user:" + l.Username),
				UserName:        l.Username,
				Email:           sd.plant("email_"+safeName(l.Username), "users: "+l.Username+" email") + "@mail.example",
				UserType:        1,
				Language:        "en",
				UserAccessToken: sd.plant("access_token_"+safeName(l.Username), "users: "+l.Username+" userAccessToken"),
				Raw:             map[string]any{},
			}
			us.accounts = append(us.accounts, acc)
		}
		acc.Password = l.Password
		acc.Roles = ombiRoles(l.Role)
	}
	if us.byName(systemUserName) == nil {
		us.accounts = append(us.accounts, &account{
			ID: stableUUID("user:" + systemUserName), UserName: systemUserName, UserType: 0,
			Roles: []string{}, Raw: map[string]any{},
		})
	}
	return us, nil
}

// byName finds an account by user name, ignoring case (NormalizedUserName).
func (us *userState) byName(name string) *account {
	for _, a := range us.accounts {
		if strings.EqualFold(a.UserName, name) {
			return a
		}
	}
	return nil
}

// byLogin finds an account by user name or email, ignoring case.
func (us *userState) byLogin(login string) *account {
	if a := us.byName(login); a != nil {
		return a
	}
	for _, a := range us.accounts {
		if a.Email != "" && strings.EqualFold(a.Email, login) {
			return a
		}
	}
	return nil
}

// byID finds an account by id.
func (us *userState) byID(id string) *account {
	for _, a := range us.accounts {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// ombiUser projects an account as the OmbiUser entity Ombi nests in requests
// (requestedUser) and issues: identity fields, limits and its tokens.
func (a *account) ombiUser() map[string]any {
	m := maps.Clone(a.Raw)
	if m == nil {
		m = map[string]any{}
	}
	for _, k := range []string{"roles", "passwordHash", "securityStamp", "concurrencyStamp"} {
		delete(m, k) // [JsonIgnore] upstream, or not part of OmbiUser
	}
	m["id"] = a.ID
	m["userName"] = a.UserName
	m["normalizedUserName"] = strings.ToUpper(a.UserName)
	m["email"] = nullIfEmpty(a.Email)
	m["normalizedEmail"] = nullIfEmpty(strings.ToUpper(a.Email))
	m["alias"] = nullIfEmpty(a.Alias)
	m["userType"] = a.UserType
	m["language"] = nullIfEmpty(a.Language)
	m["streamingCountry"] = nullIfEmpty(a.StreamingCountry)
	m["userAccessToken"] = nullIfEmpty(a.UserAccessToken)
	m["mediaServerToken"] = nullIfEmpty(a.MediaServerToken)
	m["movieRequestLimit"] = a.MovieRequestLimit
	m["episodeRequestLimit"] = a.EpisodeRequestLimit
	m["musicRequestLimit"] = a.MusicRequestLimit
	m["lastLoggedIn"] = a.LastLoggedIn
	m["isSystemUser"] = a.UserType == 0
	m["isEmbyConnect"] = false
	if a.Alias != "" {
		m["userAlias"] = a.Alias
	} else {
		m["userAlias"] = a.UserName
	}
	for _, k := range []string{"emailConfirmed", "phoneNumberConfirmed", "twoFactorEnabled", "lockoutEnabled"} {
		if _, ok := m[k]; !ok {
			m[k] = false
		}
	}
	for _, k := range []string{"phoneNumber", "lockoutEnd", "providerUserId", "notificationUserIds", "userNotificationPreferences"} {
		if _, ok := m[k]; !ok {
			m[k] = nil
		}
	}
	if _, ok := m["accessFailedCount"]; !ok {
		m["accessFailedCount"] = 0
	}
	return m
}

// displayName is what Ombi shows for a user: alias, else user name.
func (a *account) displayName() string {
	if a.Alias != "" {
		return a.Alias
	}
	return a.UserName
}

// stableUUID derives a fixed GUID-shaped id from a seed string.
func stableUUID(seed string) string {
	h := sha256.Sum256([]byte(seed))
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

// safeName keeps the characters allowed in a canary name.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// nullIfEmpty maps "" to JSON null, as Ombi serialises unset strings.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
