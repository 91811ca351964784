package state

import "time"

// UserViewModel is Ombi's UserViewModel, a user as the Identity routes
// answer it. The limit types are the seed record's values as they are
// (Week, 1, when it has none); a quota is null unless its limit is set.
type UserViewModel struct {
	Alias                   *string                 `json:"alias"`
	Claims                  []ClaimCheckboxes       `json:"claims"`
	EmailAddress            *string                 `json:"emailAddress"`
	EpisodeRequestLimit     int                     `json:"episodeRequestLimit"`
	EpisodeRequestLimitType any                     `json:"episodeRequestLimitType"`
	EpisodeRequestQuota     *RequestQuotaCountModel `json:"episodeRequestQuota"`
	HasLoggedIn             bool                    `json:"hasLoggedIn"`
	ID                      string                  `json:"id"`
	Language                *string                 `json:"language"`
	LastLoggedIn            *time.Time              `json:"lastLoggedIn"`
	MovieRequestLimit       int                     `json:"movieRequestLimit"`
	MovieRequestLimitType   any                     `json:"movieRequestLimitType"`
	MovieRequestQuota       *RequestQuotaCountModel `json:"movieRequestQuota"`
	MusicRequestLimit       int                     `json:"musicRequestLimit"`
	MusicRequestLimitType   any                     `json:"musicRequestLimitType"`
	MusicRequestQuota       *RequestQuotaCountModel `json:"musicRequestQuota"`
	Password                *string                 `json:"password"` // always null
	StreamingCountry        *string                 `json:"streamingCountry"`
	UserName                string                  `json:"userName"`
	UserQualityProfiles     UserQualityProfiles     `json:"userQualityProfiles"`
	UserType                int                     `json:"userType"`
}

// ClaimCheckboxes is Ombi's ClaimCheckboxes: a role and whether the user
// holds it.
type ClaimCheckboxes struct {
	Enabled bool   `json:"enabled"`
	Value   string `json:"value"`
}

// RequestQuotaCountModel is Ombi's RequestQuotaCountModel: a user's
// request limit, what is left of it and when the next request frees up.
type RequestQuotaCountModel struct {
	HasLimit    bool      `json:"hasLimit"`
	Limit       int       `json:"limit"`
	NextRequest time.Time `json:"nextRequest"`
	Remaining   int       `json:"remaining"`
}

// UserQualityProfiles is Ombi's UserQualityProfiles, a user's Sonarr and
// Radarr overrides; the mock's users have none (all zero).
type UserQualityProfiles struct {
	ID                        int    `json:"id"`
	Radarr4KQualityProfile    int    `json:"radarr4KQualityProfile"`
	Radarr4KRootPath          int    `json:"radarr4KRootPath"`
	RadarrQualityProfile      int    `json:"radarrQualityProfile"`
	RadarrRootPath            int    `json:"radarrRootPath"`
	SonarrQualityProfile      int    `json:"sonarrQualityProfile"`
	SonarrQualityProfileAnime int    `json:"sonarrQualityProfileAnime"`
	SonarrRootPath            int    `json:"sonarrRootPath"`
	SonarrRootPathAnime       int    `json:"sonarrRootPathAnime"`
	UserID                    string `json:"userId"`
}

// UserViewModelDropdown is Ombi's UserViewModelDropdown, one user of GET
// Identity/dropdown/Users.
type UserViewModelDropdown struct {
	Email    *string `json:"email"`
	ID       string  `json:"id"`
	Username string  `json:"username"`
}

// UserNotificationPreferences is Ombi's UserNotificationPreferences: a
// user's address on one notification agent.
type UserNotificationPreferences struct {
	Agent   int     `json:"agent"`
	Enabled bool    `json:"enabled"`
	ID      int     `json:"id"`
	UserID  string  `json:"userId"`
	Value   *string `json:"value"`
}

// OmbiIdentityResult is Ombi's OmbiIdentityResult; Errors is null on
// success.
type OmbiIdentityResult struct {
	Errors     []string `json:"errors"`
	Successful bool     `json:"successful"`
}

// SaveWizardResult is Ombi's SaveWizardResult, the answer of the wizard's
// first account.
type SaveWizardResult struct {
	Errors []string `json:"errors"`
	Result bool     `json:"result"`
}

// Token is Ombi's Token, a signed-in user's JWT and when it expires
// (RFC 3339).
type Token struct {
	AccessToken string `json:"access_token"`
	Expiration  string `json:"expiration"`
}
