package db

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// Account is one Ombi user (OmbiUser). Login passwords come from Options;
// seed-only users (Plex, Emby, the system user) have none.
type Account struct {
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
	// It is never changed once loaded (ombiUserJSON keeps encodings by it).
	Raw map[string]any
}

// UserState holds every account in seed order.
type UserState struct {
	Accounts []*Account
	// encoded keeps each account's encoded OmbiUser (*account ->
	// *encodedOmbiUser), see ombiUserJSON; nil keeps none.
	encoded *sync.Map
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
func newUserState(sd *seedSet, logins []User) (UserState, error) {
	var raws []map[string]any
	if err := sd.decode("users.json", &raws); err != nil {
		return UserState{}, err
	}
	us := UserState{encoded: &sync.Map{}}
	defer func() {
		// Ombi also serialises normalizedEmail: the upper-cased email is a secret too
		for _, a := range us.Accounts {
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
			return UserState{}, fmt.Errorf("decode user %v: %w", raw["userName"], err)
		}
		acc := &Account{
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
		us.Accounts = append(us.Accounts, acc)
	}
	for _, l := range logins {
		acc := us.ByName(l.Username)
		if acc == nil {
			acc = &Account{
				ID:              StableUUID("user:" + l.Username),
				UserName:        l.Username,
				Email:           sd.plant("email_"+safeName(l.Username), "users: "+l.Username+" email") + "@mail.example",
				UserType:        1,
				Language:        "en",
				UserAccessToken: sd.plant("access_token_"+safeName(l.Username), "users: "+l.Username+" userAccessToken"),
				Raw:             map[string]any{},
			}
			us.Accounts = append(us.Accounts, acc)
		}
		acc.Password = l.Password
		acc.Roles = ombiRoles(l.Role)
	}
	if us.ByName(SystemUserName) == nil {
		us.Accounts = append(us.Accounts, &Account{
			ID: StableUUID("user:" + SystemUserName), UserName: SystemUserName, UserType: 0,
			Roles: []string{}, Raw: map[string]any{},
		})
	}
	return us, nil
}

// ByName finds an account by user name, ignoring case (NormalizedUserName).
func (us *UserState) ByName(name string) *Account {
	for _, a := range us.Accounts {
		if strings.EqualFold(a.UserName, name) {
			return a
		}
	}
	return nil
}

// ByLogin finds an account by user name or email, ignoring case.
func (us *UserState) ByLogin(login string) *Account {
	if a := us.ByName(login); a != nil {
		return a
	}
	for _, a := range us.Accounts {
		if a.Email != "" && strings.EqualFold(a.Email, login) {
			return a
		}
	}
	return nil
}

// ByID finds an account by id.
func (us *UserState) ByID(id string) *Account {
	for _, a := range us.Accounts {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// ombiUserKey is every account field the OmbiUser projection reads besides
// the seed record, by value: equal keys (and the same record) project the
// same OmbiUser.
type ombiUserKey struct {
	id, userName, email, alias                                    string
	userType                                                      int
	language, streamingCountry, userAccessToken, mediaServerToken string
	movieLimit, episodeLimit, musicLimit                          int
	lastLoggedIn                                                  *time.Time
	lastLoggedInAt                                                time.Time // *lastLoggedIn: a change in place shows too
}

// ombiUserKey reads the key of an account's projection.
func (a *Account) ombiUserKey() ombiUserKey {
	k := ombiUserKey{
		id: a.ID, userName: a.UserName, email: a.Email, alias: a.Alias, userType: a.UserType,
		language: a.Language, streamingCountry: a.StreamingCountry, userAccessToken: a.UserAccessToken,
		mediaServerToken: a.MediaServerToken, movieLimit: a.MovieRequestLimit, episodeLimit: a.EpisodeRequestLimit,
		musicLimit: a.MusicRequestLimit, lastLoggedIn: a.LastLoggedIn,
	}
	if a.LastLoggedIn != nil {
		k.lastLoggedInAt = *a.LastLoggedIn
	}
	return k
}

// OmbiUser projects an account as the OmbiUser entity Ombi nests in requests
// (requestedUser) and issues: identity fields, limits and its tokens.
func (a *Account) OmbiUser() *state.OmbiUser { return projectOmbiUser(a.ombiUserKey(), a.Raw) }

// projectOmbiUser is the OmbiUser of an account's key and seed record; it
// reads nothing else, so ombiUserJSON can keep its encoding by the two.
func projectOmbiUser(k ombiUserKey, raw map[string]any) *state.OmbiUser {
	u := &state.OmbiUser{
		ID: k.id, UserName: k.userName, NormalizedUserName: strings.ToUpper(k.userName),
		Email: NilIfEmpty(k.email), NormalizedEmail: NilIfEmpty(strings.ToUpper(k.email)),
		Alias: NilIfEmpty(k.alias), UserType: k.userType, Language: NilIfEmpty(k.language),
		StreamingCountry: NilIfEmpty(k.streamingCountry), UserAccessToken: NilIfEmpty(k.userAccessToken),
		MediaServerToken: NilIfEmpty(k.mediaServerToken), MovieRequestLimit: k.movieLimit,
		EpisodeRequestLimit: k.episodeLimit, MusicRequestLimit: k.musicLimit, LastLoggedIn: k.lastLoggedIn,
		IsSystemUser: k.userType == 0, UserAlias: k.userName,
	}
	if k.alias != "" {
		u.UserAlias = k.alias
	}
	u.SeedDefaults(raw)
	return u
}

// NilIfEmpty maps "" to nil (JSON null), as Ombi serialises unset strings.
func NilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// encodedOmbiUser is an account's OmbiUser encoded, with the key and the
// seed record it was projected from.
type encodedOmbiUser struct {
	key  ombiUserKey
	raw  map[string]any
	body json.RawMessage
}

// OmbiUserJSON is ombiUser(a) encoded as writeJSON encodes it (a
// json.RawMessage, which writeJSON copies in). The encoding is kept per account (in us.encoded) and used again
// while the account's key and seed record are the ones it was built from:
// any change of a field the projection reads makes a new one. It must run
// under the store's lock, as every account read does; readers sharing the
// read lock may build it twice, and the last one kept wins.
func (us *UserState) OmbiUserJSON(a *Account) any {
	key := a.ombiUserKey()
	if us.encoded != nil {
		if v, ok := us.encoded.Load(a); ok {
			if e := v.(*encodedOmbiUser); e.key == key && sameMap(e.raw, a.Raw) {
				return e.body
			}
		}
	}
	m := projectOmbiUser(key, a.Raw)
	body, err := state.Encode(m)
	if err != nil {
		return m // the answer's encoding meets the error, as without the cache
	}
	if us.encoded != nil {
		us.encoded.Store(a, &encodedOmbiUser{key: key, raw: a.Raw, body: body})
	}
	return json.RawMessage(body)
}

// sameMap reports whether a and b are the same map (both nil included).
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer()
}

// DisplayName is what Ombi shows for a user: alias, else user name.
func (a *Account) DisplayName() string {
	if a.Alias != "" {
		return a.Alias
	}
	return a.UserName
}

// StableUUID derives a fixed GUID-shaped id from a seed string.
func StableUUID(seed string) string {
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
