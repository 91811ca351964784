package state

import "time"

// OmbiUser is Ombi's OmbiUser entity as Ombi nests it in requests
// (requestedUser), issues and comments (userReported, user) and mobile
// devices: the identity fields, the limits and the tokens. The members
// typed as any are the ones a seed record may carry with any value; they
// default to what a fresh account holds.
type OmbiUser struct {
	AccessFailedCount           any        `json:"accessFailedCount"`
	Alias                       *string    `json:"alias"`
	Email                       *string    `json:"email"`
	EmailConfirmed              any        `json:"emailConfirmed"`
	EpisodeRequestLimit         int        `json:"episodeRequestLimit"`
	ID                          string     `json:"id"`
	IsEmbyConnect               bool       `json:"isEmbyConnect"`
	IsSystemUser                bool       `json:"isSystemUser"`
	Language                    *string    `json:"language"`
	LastLoggedIn                *time.Time `json:"lastLoggedIn"`
	LockoutEnabled              any        `json:"lockoutEnabled"`
	LockoutEnd                  any        `json:"lockoutEnd"`
	MediaServerToken            *string    `json:"mediaServerToken"`
	MovieRequestLimit           int        `json:"movieRequestLimit"`
	MusicRequestLimit           int        `json:"musicRequestLimit"`
	NormalizedEmail             *string    `json:"normalizedEmail"`
	NormalizedUserName          string     `json:"normalizedUserName"`
	NotificationUserIDs         any        `json:"notificationUserIds"`
	PhoneNumber                 any        `json:"phoneNumber"`
	PhoneNumberConfirmed        any        `json:"phoneNumberConfirmed"`
	ProviderUserID              any        `json:"providerUserId"`
	StreamingCountry            *string    `json:"streamingCountry"`
	TwoFactorEnabled            any        `json:"twoFactorEnabled"`
	UserAccessToken             *string    `json:"userAccessToken"`
	UserAlias                   string     `json:"userAlias"`
	UserName                    string     `json:"userName"`
	UserNotificationPreferences any        `json:"userNotificationPreferences"`
	UserType                    int        `json:"userType"`
	// Extra is the rest of the seed record, less the members Ombi does
	// not serialise (roles, passwordHash, securityStamp,
	// concurrencyStamp).
	Extra Extra `json:"-"`
}

// MarshalJSON writes the user with the rest of its seed record.
func (u *OmbiUser) MarshalJSON() ([]byte, error) {
	type plain OmbiUser
	return marshalWith((*plain)(u), u.Extra)
}

// SeedDefaults sets the members a seed record may carry from raw, or to a
// fresh account's value where raw has none, and the rest of raw as Extra.
func (u *OmbiUser) SeedDefaults(raw map[string]any) {
	from := func(name string, def any) any {
		if v, ok := raw[name]; ok {
			return v
		}
		return def
	}
	u.EmailConfirmed = from("emailConfirmed", false)
	u.PhoneNumberConfirmed = from("phoneNumberConfirmed", false)
	u.TwoFactorEnabled = from("twoFactorEnabled", false)
	u.LockoutEnabled = from("lockoutEnabled", false)
	u.PhoneNumber = from("phoneNumber", nil)
	u.LockoutEnd = from("lockoutEnd", nil)
	u.ProviderUserID = from("providerUserId", nil)
	u.NotificationUserIDs = from("notificationUserIds", nil)
	u.UserNotificationPreferences = from("userNotificationPreferences", nil)
	u.AccessFailedCount = from("accessFailedCount", 0)
	u.Extra = nil
	for k, v := range raw {
		switch k {
		case "roles", "passwordHash", "securityStamp", "concurrencyStamp":
			continue // [JsonIgnore] upstream, or not part of OmbiUser
		}
		if u.Extra == nil {
			u.Extra = make(Extra, len(raw))
		}
		u.Extra[k] = v
	}
}
