package state

// The settings documents are Ombi's settings models (src/Ombi.Settings/
// Settings/Models) and, for the notification agents, the view models the
// settings routes answer with their templates (src/Ombi.Core/Models/UI),
// members sorted by wire name; each is a Document, written back as it was
// saved. Then the answers of the settings routes that are not a settings
// document.

// JobSettingsViewModel is Ombi's JobSettingsViewModel, the answer of
// saving the job schedules: whether they were saved, else which cron
// expression is not valid.
type JobSettingsViewModel struct {
	Message *string `json:"message"`
	Result  bool    `json:"result"`
}

// CronTestModel is Ombi's CronTestModel, the answer of POST
// Settings/testcron.
type CronTestModel struct {
	Message *string `json:"message"`
	Success bool    `json:"success"`
}

// DatabaseConfigurationResult is Ombi's DatabaseConfigurationResult, the
// answer of the wizard's database step.
type DatabaseConfigurationResult struct {
	Message string `json:"message"`
	Success bool   `json:"success"`
}

// Settings holds the saved settings: each section by its lower-case wire key
// (the route after Settings/: "ombi", "radarr", "notifications/email", ...),
// as a data document's settings section gives them, plus the v2 feature
// list, the custom page, the themes and the about model. A section the
// document leaves out is nil.
type Settings struct {
	Document       `json:"-"`
	About          *AboutViewModel                   `json:"about"`
	Authentication *AuthenticationSettings           `json:"authentication"`
	CouchPotato    *CouchPotatoSettings              `json:"couchpotato"`
	Customization  *CustomizationSettings            `json:"customization"`
	CustomPage     *CustomPageSettings               `json:"custompage"`
	DogNzb         *DogNzbSettings                   `json:"dognzb"`
	Emby           *EmbySettings                     `json:"emby"`
	Features       []*FeatureEnablement              `json:"features"`
	Issues         *IssueSettings                    `json:"issues"`
	Jellyfin       *JellyfinSettings                 `json:"jellyfin"`
	Jobs           *JobSettings                      `json:"jobs"`
	LandingPage    *LandingPageSettings              `json:"landingpage"`
	Lidarr         *LidarrSettings                   `json:"lidarr"`
	Discord        *DiscordNotificationsViewModel    `json:"notifications/discord"`
	Email          *EmailNotificationsViewModel      `json:"notifications/email"`
	Gotify         *GotifyNotificationViewModel      `json:"notifications/gotify"`
	Mattermost     *MattermostNotificationsViewModel `json:"notifications/mattermost"`
	Mobile         *MobileNotificationsViewModel     `json:"notifications/mobile"`
	Newsletter     *NewsletterNotificationViewModel  `json:"notifications/newsletter"`
	Ntfy           *NtfyNotificationViewModel        `json:"notifications/ntfy"`
	Pushbullet     *PushbulletNotificationViewModel  `json:"notifications/pushbullet"`
	Pushover       *PushoverNotificationViewModel    `json:"notifications/pushover"`
	Slack          *SlackNotificationsViewModel      `json:"notifications/slack"`
	Telegram       *TelegramNotificationsViewModel   `json:"notifications/telegram"`
	Twilio         *TwilioSettingsViewModel          `json:"notifications/twilio"`
	Webhook        *WebhookNotificationViewModel     `json:"notifications/webhook"`
	Ombi           *OmbiSettings                     `json:"ombi"`
	Plex           *PlexSettings                     `json:"plex"`
	Radarr         *RadarrCombinedModel              `json:"radarr"`
	SickRage       *SickRageSettings                 `json:"sickrage"`
	Sonarr         *SonarrSettings                   `json:"sonarr"`
	Themes         []*PresetThemeViewModel           `json:"themes"`
	TheMovieDb     *TheMovieDbSettings               `json:"themoviedb"`
	Update         *UpdateSettings                   `json:"update"`
	UserManagement *UserManagementSettings           `json:"usermanagement"`
	Vote           *VoteSettings                     `json:"vote"`
}

// MarshalJSON writes the document as it was saved.
func (x *Settings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *Settings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// OmbiSettings (Settings/ombi). LegacyTelemetry is not Ombi's: the built-in
// data plants it as an undocumented member.
type OmbiSettings struct {
	Document                             `json:"-"`
	APIKey                               *string          `json:"apiKey"`
	AutoDeleteAfterDays                  int              `json:"autoDeleteAfterDays"`
	AutoDeleteAvailableRequests          bool             `json:"autoDeleteAvailableRequests"`
	BaseURL                              *string          `json:"baseUrl"`
	Branch                               int              `json:"branch"`
	CollectAnalyticData                  bool             `json:"collectAnalyticData"`
	DefaultLanguageCode                  *string          `json:"defaultLanguageCode"`
	DisableHealthChecks                  bool             `json:"disableHealthChecks"`
	DoNotSendNotificationsForAutoApprove bool             `json:"doNotSendNotificationsForAutoApprove"`
	HasMigratedOldTvDbData               bool             `json:"hasMigratedOldTvDbData"`
	HideRequestsUsers                    bool             `json:"hideRequestsUsers"`
	ID                                   int              `json:"id"`
	LegacyTelemetry                      *LegacyTelemetry `json:"legacyTelemetry"`
	Set                                  bool             `json:"set"`
	Wizard                               bool             `json:"wizard"`
}

// MarshalJSON writes the document as it was saved.
func (x *OmbiSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *OmbiSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// LegacyTelemetry is the undocumented member the built-in data plants in the
// ombi section (Ombi has no such model).
type LegacyTelemetry struct {
	Document `json:"-"`
	Enabled  bool    `json:"enabled"`
	LastPing *string `json:"lastPing"`
}

// MarshalJSON writes the document as it was saved.
func (x *LegacyTelemetry) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *LegacyTelemetry) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// CustomizationSettings (Settings/customization). ThemeHints is not Ombi's:
// the built-in data plants it as an undocumented member.
type CustomizationSettings struct {
	Document                       `json:"-"`
	ApplicationName                *string  `json:"applicationName"`
	ApplicationURL                 *string  `json:"applicationUrl"`
	CustomCSS                      *string  `json:"customCss"`
	CustomDonationMessage          *string  `json:"customDonationMessage"`
	CustomDonationURL              *string  `json:"customDonationUrl"`
	EnableCustomDonations          bool     `json:"enableCustomDonations"`
	Favicon                        *string  `json:"favicon"`
	HideAvailableFromDiscover      bool     `json:"hideAvailableFromDiscover"`
	HideAvailableRecentlyRequested bool     `json:"hideAvailableRecentlyRequested"`
	ID                             int      `json:"id"`
	Logo                           *string  `json:"logo"`
	RecentlyAddedPage              bool     `json:"recentlyAddedPage"`
	ThemeHints                     []string `json:"themeHints"`
	UseCustomPage                  bool     `json:"useCustomPage"`
}

// MarshalJSON writes the document as it was saved.
func (x *CustomizationSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *CustomizationSettings) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// LandingPageSettings (Settings/landingpage), with its computed
// noticeEnabled and expired as saved.
type LandingPageSettings struct {
	Document      `json:"-"`
	Enabled       bool    `json:"enabled"`
	EndDateTime   string  `json:"endDateTime"`
	Expired       bool    `json:"expired"`
	ID            int     `json:"id"`
	NoticeEnabled bool    `json:"noticeEnabled"`
	NoticeText    *string `json:"noticeText"`
	StartDateTime string  `json:"startDateTime"`
	TimeLimit     bool    `json:"timeLimit"`
}

// MarshalJSON writes the document as it was saved.
func (x *LandingPageSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *LandingPageSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// AuthenticationSettings (Settings/authentication).
type AuthenticationSettings struct {
	Document               `json:"-"`
	AllowNoPassword        bool    `json:"allowNoPassword"`
	EnableHeaderAuth       bool    `json:"enableHeaderAuth"`
	EnableOAuth            bool    `json:"enableOAuth"`
	HeaderAuthCreateUser   bool    `json:"headerAuthCreateUser"`
	HeaderAuthVariable     *string `json:"headerAuthVariable"`
	ID                     int     `json:"id"`
	RequireDigit           bool    `json:"requireDigit"`
	RequireLowercase       bool    `json:"requireLowercase"`
	RequireNonAlphanumeric bool    `json:"requireNonAlphanumeric"`
	RequireUppercase       bool    `json:"requireUppercase"`
	RequiredLength         int     `json:"requiredLength"`
}

func (x *AuthenticationSettings) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *AuthenticationSettings) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// IssueSettings (Settings/Issues).
type IssueSettings struct {
	Document                  `json:"-"`
	DaysAfterResolvedToDelete int  `json:"daysAfterResolvedToDelete"`
	DeleteIssues              bool `json:"deleteIssues"`
	EnableInProgress          bool `json:"enableInProgress"`
	Enabled                   bool `json:"enabled"`
	ID                        int  `json:"id"`
}

// MarshalJSON writes the document as it was saved.
func (x *IssueSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *IssueSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// VoteSettings (Settings/vote).
type VoteSettings struct {
	Document      `json:"-"`
	Enabled       bool `json:"enabled"`
	ID            int  `json:"id"`
	MovieVoteMax  int  `json:"movieVoteMax"`
	MusicVoteMax  int  `json:"musicVoteMax"`
	TvShowVoteMax int  `json:"tvShowVoteMax"`
}

// MarshalJSON writes the document as it was saved.
func (x *VoteSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *VoteSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// UserManagementSettings (Settings/UserManagement); the limit types are
// RequestLimitType values.
type UserManagementSettings struct {
	Document                `json:"-"`
	BannedEmbyUserIDs       []string `json:"bannedEmbyUserIds"`
	BannedJellyfinUserIDs   []string `json:"bannedJellyfinUserIds"`
	BannedPlexUserIDs       []string `json:"bannedPlexUserIds"`
	CleanupPlexUsers        bool     `json:"cleanupPlexUsers"`
	DefaultRoles            []string `json:"defaultRoles"`
	DefaultStreamingCountry *string  `json:"defaultStreamingCountry"`
	EpisodeRequestLimit     int      `json:"episodeRequestLimit"`
	EpisodeRequestLimitType int      `json:"episodeRequestLimitType"`
	ID                      int      `json:"id"`
	ImportEmbyUsers         bool     `json:"importEmbyUsers"`
	ImportJellyfinUsers     bool     `json:"importJellyfinUsers"`
	ImportPlexAdmin         bool     `json:"importPlexAdmin"`
	ImportPlexUsers         bool     `json:"importPlexUsers"`
	MovieRequestLimit       int      `json:"movieRequestLimit"`
	MovieRequestLimitType   int      `json:"movieRequestLimitType"`
	MusicRequestLimit       int      `json:"musicRequestLimit"`
	MusicRequestLimitType   int      `json:"musicRequestLimitType"`
}

func (x *UserManagementSettings) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *UserManagementSettings) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// UpdateSettings (Settings/Update).
type UpdateSettings struct {
	Document           `json:"-"`
	AutoUpdateEnabled  bool    `json:"autoUpdateEnabled"`
	ID                 int     `json:"id"`
	Password           *string `json:"password"`
	ProcessName        *string `json:"processName"`
	ScriptLocation     *string `json:"scriptLocation"`
	TestMode           bool    `json:"testMode"`
	UpdateSchedule     *string `json:"updateSchedule"`
	UseScript          bool    `json:"useScript"`
	Username           *string `json:"username"`
	WindowsService     bool    `json:"windowsService"`
	WindowsServiceName *string `json:"windowsServiceName"`
}

// MarshalJSON writes the document as it was saved.
func (x *UpdateSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *UpdateSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// PlexSettings (Settings/plex); installId is a Guid.
type PlexSettings struct {
	Document              `json:"-"`
	Enable                bool           `json:"enable"`
	EnableWatchlistImport bool           `json:"enableWatchlistImport"`
	ID                    int            `json:"id"`
	InstallID             string         `json:"installId"`
	MonitorAll            bool           `json:"monitorAll"`
	Servers               []*PlexServers `json:"servers"`
}

// MarshalJSON writes the document as it was saved.
func (x *PlexSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *PlexSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// PlexServers, one saved Plex server (ExternalSettings).
type PlexServers struct {
	Document              `json:"-"`
	EpisodeBatchSize      int                      `json:"episodeBatchSize"`
	ID                    int                      `json:"id"`
	IP                    *string                  `json:"ip"`
	MachineIdentifier     *string                  `json:"machineIdentifier"`
	Name                  *string                  `json:"name"`
	PlexAuthToken         *string                  `json:"plexAuthToken"`
	PlexSelectedLibraries []*PlexSelectedLibraries `json:"plexSelectedLibraries"`
	Port                  int                      `json:"port"`
	ServerHostname        *string                  `json:"serverHostname"`
	Ssl                   bool                     `json:"ssl"`
	SubDir                *string                  `json:"subDir"`
}

// MarshalJSON writes the document as it was saved.
func (x *PlexServers) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *PlexServers) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// PlexSelectedLibraries, a library of a saved Plex server.
type PlexSelectedLibraries struct {
	Document `json:"-"`
	Enabled  bool    `json:"enabled"`
	Key      int     `json:"key"`
	Title    *string `json:"title"`
}

// MarshalJSON writes the document as it was saved.
func (x *PlexSelectedLibraries) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *PlexSelectedLibraries) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// EmbySettings (Settings/emby).
type EmbySettings struct {
	Document `json:"-"`
	Enable   bool           `json:"enable"`
	ID       int            `json:"id"`
	Servers  []*EmbyServers `json:"servers"`
}

// MarshalJSON writes the document as it was saved.
func (x *EmbySettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *EmbySettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// EmbyServers, one saved Emby server (ExternalSettings).
type EmbyServers struct {
	Document               `json:"-"`
	AdministratorID        *string                  `json:"administratorId"`
	APIKey                 *string                  `json:"apiKey"`
	EmbySelectedLibraries  []*EmbySelectedLibraries `json:"embySelectedLibraries"`
	EnableEpisodeSearching bool                     `json:"enableEpisodeSearching"`
	ID                     int                      `json:"id"`
	IP                     *string                  `json:"ip"`
	Name                   *string                  `json:"name"`
	Port                   int                      `json:"port"`
	ServerHostname         *string                  `json:"serverHostname"`
	ServerID               *string                  `json:"serverId"`
	Ssl                    bool                     `json:"ssl"`
	SubDir                 *string                  `json:"subDir"`
}

// MarshalJSON writes the document as it was saved.
func (x *EmbyServers) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *EmbyServers) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// EmbySelectedLibraries, a library of a saved Emby server.
type EmbySelectedLibraries struct {
	Document       `json:"-"`
	CollectionType *string `json:"collectionType"`
	Enabled        bool    `json:"enabled"`
	Key            *string `json:"key"`
	Title          *string `json:"title"`
}

// MarshalJSON writes the document as it was saved.
func (x *EmbySelectedLibraries) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *EmbySelectedLibraries) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// JellyfinSettings (Settings/jellyfin).
type JellyfinSettings struct {
	Document `json:"-"`
	Enable   bool               `json:"enable"`
	ID       int                `json:"id"`
	Servers  []*JellyfinServers `json:"servers"`
}

// MarshalJSON writes the document as it was saved.
func (x *JellyfinSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *JellyfinSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// JellyfinServers, one saved Jellyfin server (ExternalSettings).
type JellyfinServers struct {
	Document                  `json:"-"`
	AdministratorID           *string                      `json:"administratorId"`
	APIKey                    *string                      `json:"apiKey"`
	EnableEpisodeSearching    bool                         `json:"enableEpisodeSearching"`
	ID                        int                          `json:"id"`
	IP                        *string                      `json:"ip"`
	JellyfinSelectedLibraries []*JellyfinSelectedLibraries `json:"jellyfinSelectedLibraries"`
	Name                      *string                      `json:"name"`
	Port                      int                          `json:"port"`
	ServerHostname            *string                      `json:"serverHostname"`
	ServerID                  *string                      `json:"serverId"`
	Ssl                       bool                         `json:"ssl"`
	SubDir                    *string                      `json:"subDir"`
}

// MarshalJSON writes the document as it was saved.
func (x *JellyfinServers) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *JellyfinServers) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// JellyfinSelectedLibraries, a library of a saved Jellyfin server.
type JellyfinSelectedLibraries struct {
	Document       `json:"-"`
	CollectionType *string `json:"collectionType"`
	Enabled        bool    `json:"enabled"`
	Key            *string `json:"key"`
	Title          *string `json:"title"`
}

func (x *JellyfinSelectedLibraries) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *JellyfinSelectedLibraries) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// SonarrSettings (Settings/sonarr).
type SonarrSettings struct {
	Document                  `json:"-"`
	AddOnly                   bool    `json:"addOnly"`
	AnimeTag                  *int    `json:"animeTag"`
	APIKey                    *string `json:"apiKey"`
	Enabled                   bool    `json:"enabled"`
	ID                        int     `json:"id"`
	IP                        *string `json:"ip"`
	LanguageProfile           int     `json:"languageProfile"`
	LanguageProfileAnime      int     `json:"languageProfileAnime"`
	Port                      int     `json:"port"`
	PrioritizeArrAvailability bool    `json:"prioritizeArrAvailability"`
	QualityProfile            *string `json:"qualityProfile"`
	QualityProfileAnime       *string `json:"qualityProfileAnime"`
	RootPath                  *string `json:"rootPath"`
	RootPathAnime             *string `json:"rootPathAnime"`
	ScanForAvailability       bool    `json:"scanForAvailability"`
	SeasonFolders             bool    `json:"seasonFolders"`
	SendUserTags              bool    `json:"sendUserTags"`
	Ssl                       bool    `json:"ssl"`
	SubDir                    *string `json:"subDir"`
	Tag                       *int    `json:"tag"`
}

// MarshalJSON writes the document as it was saved.
func (x *SonarrSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *SonarrSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// RadarrCombinedModel (Settings/radarr): the Radarr and the Radarr 4K
// settings.
type RadarrCombinedModel struct {
	Document `json:"-"`
	Radarr   *RadarrSettings `json:"radarr"`
	Radarr4K *RadarrSettings `json:"radarr4K"`
}

// MarshalJSON writes the document as it was saved.
func (x *RadarrCombinedModel) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *RadarrCombinedModel) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// RadarrSettings (and Radarr4KSettings, which adds nothing).
type RadarrSettings struct {
	Document                  `json:"-"`
	AddOnly                   bool    `json:"addOnly"`
	APIKey                    *string `json:"apiKey"`
	DefaultQualityProfile     *string `json:"defaultQualityProfile"`
	DefaultRootPath           *string `json:"defaultRootPath"`
	Enabled                   bool    `json:"enabled"`
	ID                        int     `json:"id"`
	IP                        *string `json:"ip"`
	MinimumAvailability       *string `json:"minimumAvailability"`
	Port                      int     `json:"port"`
	PrioritizeArrAvailability bool    `json:"prioritizeArrAvailability"`
	ScanForAvailability       bool    `json:"scanForAvailability"`
	SendUserTags              bool    `json:"sendUserTags"`
	Ssl                       bool    `json:"ssl"`
	SubDir                    *string `json:"subDir"`
	Tag                       *int    `json:"tag"`
}

// MarshalJSON writes the document as it was saved.
func (x *RadarrSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *RadarrSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// LidarrSettings (Settings/lidarr).
type LidarrSettings struct {
	Document              `json:"-"`
	AddOnly               bool    `json:"addOnly"`
	AlbumFolder           bool    `json:"albumFolder"`
	APIKey                *string `json:"apiKey"`
	DefaultQualityProfile *string `json:"defaultQualityProfile"`
	DefaultRootPath       *string `json:"defaultRootPath"`
	Enabled               bool    `json:"enabled"`
	ID                    int     `json:"id"`
	IP                    *string `json:"ip"`
	MetadataProfileID     int     `json:"metadataProfileId"`
	Port                  int     `json:"port"`
	Ssl                   bool    `json:"ssl"`
	SubDir                *string `json:"subDir"`
}

// MarshalJSON writes the document as it was saved.
func (x *LidarrSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *LidarrSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// CouchPotatoSettings (Settings/CouchPotato).
type CouchPotatoSettings struct {
	Document         `json:"-"`
	APIKey           *string `json:"apiKey"`
	DefaultProfileID *string `json:"defaultProfileId"`
	Enabled          bool    `json:"enabled"`
	ID               int     `json:"id"`
	IP               *string `json:"ip"`
	Password         *string `json:"password"`
	Port             int     `json:"port"`
	Ssl              bool    `json:"ssl"`
	SubDir           *string `json:"subDir"`
	Username         *string `json:"username"`
}

// MarshalJSON writes the document as it was saved.
func (x *CouchPotatoSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *CouchPotatoSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// DogNzbSettings (Settings/DogNzb).
type DogNzbSettings struct {
	Document `json:"-"`
	APIKey   *string `json:"apiKey"`
	Enabled  bool    `json:"enabled"`
	ID       int     `json:"id"`
	Movies   bool    `json:"movies"`
	TvShows  bool    `json:"tvShows"`
}

// MarshalJSON writes the document as it was saved.
func (x *DogNzbSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *DogNzbSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// SickRageSettings (Settings/SickRage), with its computed qualities as
// saved.
type SickRageSettings struct {
	Document       `json:"-"`
	APIKey         *string          `json:"apiKey"`
	Enabled        bool             `json:"enabled"`
	ID             int              `json:"id"`
	IP             *string          `json:"ip"`
	Port           int              `json:"port"`
	Qualities      []*DropDownModel `json:"qualities"`
	QualityProfile *string          `json:"qualityProfile"`
	Ssl            bool             `json:"ssl"`
	SubDir         *string          `json:"subDir"`
}

// MarshalJSON writes the document as it was saved.
func (x *SickRageSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *SickRageSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// DropDownModel, one SickRage quality.
type DropDownModel struct {
	Document `json:"-"`
	Display  *string `json:"display"`
	Value    *string `json:"value"`
}

// MarshalJSON writes the document as it was saved.
func (x *DropDownModel) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *DropDownModel) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// TheMovieDbSettings (Settings/themoviedb).
type TheMovieDbSettings struct {
	Document              `json:"-"`
	ExcludedKeywordIDs    []int    `json:"excludedKeywordIds"`
	ExcludedMovieGenreIDs []int    `json:"excludedMovieGenreIds"`
	ExcludedTvGenreIDs    []int    `json:"excludedTvGenreIds"`
	ID                    int      `json:"id"`
	OriginalLanguages     []string `json:"originalLanguages"`
	ShowAdultMovies       bool     `json:"showAdultMovies"`
}

// MarshalJSON writes the document as it was saved.
func (x *TheMovieDbSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *TheMovieDbSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// JobSettings (Settings/jobs): a Quartz cron expression per job.
type JobSettings struct {
	Document              `json:"-"`
	AutoDeleteRequests    *string `json:"autoDeleteRequests"`
	AutomaticUpdater      *string `json:"automaticUpdater"`
	CouchPotatoSync       *string `json:"couchPotatoSync"`
	EmbyContentSync       *string `json:"embyContentSync"`
	EmbyRecentlyAddedSync *string `json:"embyRecentlyAddedSync"`
	ID                    int     `json:"id"`
	IssuesPurge           *string `json:"issuesPurge"`
	JellyfinContentSync   *string `json:"jellyfinContentSync"`
	LidarrArtistSync      *string `json:"lidarrArtistSync"`
	MediaDatabaseRefresh  *string `json:"mediaDatabaseRefresh"`
	Newsletter            *string `json:"newsletter"`
	PlexContentSync       *string `json:"plexContentSync"`
	PlexRecentlyAddedSync *string `json:"plexRecentlyAddedSync"`
	PlexWatchlistImport   *string `json:"plexWatchlistImport"`
	RadarrSync            *string `json:"radarrSync"`
	RetryRequests         *string `json:"retryRequests"`
	SickRageSync          *string `json:"sickRageSync"`
	SonarrSync            *string `json:"sonarrSync"`
	UserImporter          *string `json:"userImporter"`
}

// MarshalJSON writes the document as it was saved.
func (x *JobSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *JobSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// CustomPageSettings (Settings/custompage, CustomPage).
type CustomPageSettings struct {
	Document        `json:"-"`
	FontAwesomeIcon *string `json:"fontAwesomeIcon"`
	HTML            *string `json:"html"`
	ID              int     `json:"id"`
	Title           *string `json:"title"`
}

// MarshalJSON writes the document as it was saved.
func (x *CustomPageSettings) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *CustomPageSettings) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// FeatureEnablement, one v2 feature flag (FeatureSettings.Features).
type FeatureEnablement struct {
	Document `json:"-"`
	Enabled  bool    `json:"enabled"`
	Name     *string `json:"name"`
}

// MarshalJSON writes the document as it was saved.
func (x *FeatureEnablement) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *FeatureEnablement) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// PresetThemeViewModel, one theme of Settings/themes.
type PresetThemeViewModel struct {
	Document    `json:"-"`
	DisplayName *string `json:"displayName"`
	FullName    *string `json:"fullName"`
	URL         *string `json:"url"`
	Version     *string `json:"version"`
}

// MarshalJSON writes the document as it was saved.
func (x *PresetThemeViewModel) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *PresetThemeViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// AboutViewModel (Settings/about).
type AboutViewModel struct {
	Document                 `json:"-"`
	ApplicationBasePath      *string `json:"applicationBasePath"`
	Branch                   *string `json:"branch"`
	ExternalConnectionString *string `json:"externalConnectionString"`
	ExternalDatabaseType     *string `json:"externalDatabaseType"`
	FrameworkDescription     *string `json:"frameworkDescription"`
	NotSupported             bool    `json:"notSupported"`
	OmbiConnectionString     *string `json:"ombiConnectionString"`
	OmbiDatabaseType         *string `json:"ombiDatabaseType"`
	OsArchitecture           *string `json:"osArchitecture"`
	OsDescription            *string `json:"osDescription"`
	ProcessArchitecture      *string `json:"processArchitecture"`
	SettingsConnectionString *string `json:"settingsConnectionString"`
	SettingsDatabaseType     *string `json:"settingsDatabaseType"`
	StoragePath              *string `json:"storagePath"`
	Version                  *string `json:"version"`
}

// MarshalJSON writes the document as it was saved.
func (x *AboutViewModel) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *AboutViewModel) UnmarshalJSON(b []byte) error { return decodeDocument(b, x, &x.Document) }

// NotificationTemplates (the entity): one agent's template for one
// notification type (NotificationAgent and NotificationType values).
type NotificationTemplate struct {
	Document         `json:"-"`
	Agent            int     `json:"agent"`
	Enabled          bool    `json:"enabled"`
	ID               int     `json:"id"`
	Message          *string `json:"message"`
	NotificationType int     `json:"notificationType"`
	Subject          *string `json:"subject"`
}

// MarshalJSON writes the document as it was saved.
func (x *NotificationTemplate) MarshalJSON() ([]byte, error) { return marshalDocument(x, &x.Document) }

// UnmarshalJSON reads a saved document.
func (x *NotificationTemplate) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// EmailNotificationsViewModel (Settings/notifications/email).
type EmailNotificationsViewModel struct {
	Document                   `json:"-"`
	Authentication             bool                    `json:"authentication"`
	DisableCertificateChecking bool                    `json:"disableCertificateChecking"`
	DisableTLS                 bool                    `json:"disableTLS"`
	Enabled                    bool                    `json:"enabled"`
	Host                       *string                 `json:"host"`
	ID                         int                     `json:"id"`
	NotificationTemplates      []*NotificationTemplate `json:"notificationTemplates"`
	Password                   *string                 `json:"password"`
	Port                       int                     `json:"port"`
	SenderAddress              *string                 `json:"senderAddress"`
	SenderName                 *string                 `json:"senderName"`
	Username                   *string                 `json:"username"`
}

func (x *EmailNotificationsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *EmailNotificationsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// DiscordNotificationsViewModel (Settings/notifications/discord).
type DiscordNotificationsViewModel struct {
	Document              `json:"-"`
	Enabled               bool                    `json:"enabled"`
	HideUser              bool                    `json:"hideUser"`
	Icon                  *string                 `json:"icon"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	Username              *string                 `json:"username"`
	WebhookURL            *string                 `json:"webhookUrl"`
}

func (x *DiscordNotificationsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *DiscordNotificationsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// TelegramNotificationsViewModel (Settings/notifications/telegram).
type TelegramNotificationsViewModel struct {
	Document              `json:"-"`
	BotAPI                *string                 `json:"botApi"`
	ChatID                *string                 `json:"chatId"`
	Enabled               bool                    `json:"enabled"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	ParseMode             *string                 `json:"parseMode"`
}

func (x *TelegramNotificationsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *TelegramNotificationsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// PushbulletNotificationViewModel (Settings/notifications/pushbullet).
type PushbulletNotificationViewModel struct {
	Document              `json:"-"`
	AccessToken           *string                 `json:"accessToken"`
	ChannelTag            *string                 `json:"channelTag"`
	Enabled               bool                    `json:"enabled"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
}

func (x *PushbulletNotificationViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *PushbulletNotificationViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// PushoverNotificationViewModel (Settings/notifications/pushover).
type PushoverNotificationViewModel struct {
	Document              `json:"-"`
	AccessToken           *string                 `json:"accessToken"`
	Enabled               bool                    `json:"enabled"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	Priority              int                     `json:"priority"`
	Sound                 *string                 `json:"sound"`
	UserToken             *string                 `json:"userToken"`
}

func (x *PushoverNotificationViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *PushoverNotificationViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// SlackNotificationsViewModel (Settings/notifications/slack).
type SlackNotificationsViewModel struct {
	Document              `json:"-"`
	Channel               *string                 `json:"channel"`
	Enabled               bool                    `json:"enabled"`
	IconEmoji             *string                 `json:"iconEmoji"`
	IconURL               *string                 `json:"iconUrl"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	Username              *string                 `json:"username"`
	WebhookURL            *string                 `json:"webhookUrl"`
}

func (x *SlackNotificationsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *SlackNotificationsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// MattermostNotificationsViewModel (Settings/notifications/mattermost).
type MattermostNotificationsViewModel struct {
	Document              `json:"-"`
	Channel               *string                 `json:"channel"`
	Enabled               bool                    `json:"enabled"`
	IconURL               *string                 `json:"iconUrl"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	Username              *string                 `json:"username"`
	WebhookURL            *string                 `json:"webhookUrl"`
}

func (x *MattermostNotificationsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *MattermostNotificationsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// TwilioSettingsViewModel (Settings/notifications/twilio): its templates sit
// under whatsAppSettings. NotificationTemplates at the top level is not
// Ombi's: a data document may give them there (older ones did) and the seed
// moves them under whatsAppSettings.
type TwilioSettingsViewModel struct {
	Document              `json:"-"`
	ID                    int                        `json:"id"`
	NotificationTemplates []*NotificationTemplate    `json:"notificationTemplates"`
	WhatsAppSettings      *WhatsAppSettingsViewModel `json:"whatsAppSettings"`
}

func (x *TwilioSettingsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *TwilioSettingsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// WhatsAppSettingsViewModel, Twilio's WhatsApp settings and templates.
type WhatsAppSettingsViewModel struct {
	Document              `json:"-"`
	AccountSid            *string                 `json:"accountSid"`
	AuthToken             *string                 `json:"authToken"`
	Enabled               bool                    `json:"enabled"`
	From                  *string                 `json:"from"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
}

func (x *WhatsAppSettingsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *WhatsAppSettingsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// MobileNotificationsViewModel (Settings/notifications/mobile).
type MobileNotificationsViewModel struct {
	Document              `json:"-"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
}

func (x *MobileNotificationsViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *MobileNotificationsViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// GotifyNotificationViewModel (Settings/notifications/gotify).
type GotifyNotificationViewModel struct {
	Document              `json:"-"`
	ApplicationToken      *string                 `json:"applicationToken"`
	BaseURL               *string                 `json:"baseUrl"`
	Enabled               bool                    `json:"enabled"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	Priority              int                     `json:"priority"`
}

func (x *GotifyNotificationViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *GotifyNotificationViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// NtfyNotificationViewModel (Settings/notifications/ntfy).
type NtfyNotificationViewModel struct {
	Document              `json:"-"`
	AuthorizationHeader   *string                 `json:"authorizationHeader"`
	BaseURL               *string                 `json:"baseUrl"`
	Enabled               bool                    `json:"enabled"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	Priority              int                     `json:"priority"`
	Topic                 *string                 `json:"topic"`
}

func (x *NtfyNotificationViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *NtfyNotificationViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// WebhookNotificationViewModel (Settings/notifications/webhook), which has
// no templates. NotificationTemplates is not Ombi's: a data document may
// give them (the built-in one does) and the seed drops them.
type WebhookNotificationViewModel struct {
	Document              `json:"-"`
	ApplicationToken      *string                 `json:"applicationToken"`
	Enabled               bool                    `json:"enabled"`
	ID                    int                     `json:"id"`
	NotificationTemplates []*NotificationTemplate `json:"notificationTemplates"`
	WebhookURL            *string                 `json:"webhookUrl"`
}

func (x *WebhookNotificationViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *WebhookNotificationViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}

// NewsletterNotificationViewModel (Settings/notifications/newsletter): the
// Email agent's Newsletter template.
type NewsletterNotificationViewModel struct {
	Document             `json:"-"`
	DisableMovies        bool                  `json:"disableMovies"`
	DisableMusic         bool                  `json:"disableMusic"`
	DisableTv            bool                  `json:"disableTv"`
	Enabled              bool                  `json:"enabled"`
	ExternalEmails       []string              `json:"externalEmails"`
	ID                   int                   `json:"id"`
	NotificationTemplate *NotificationTemplate `json:"notificationTemplate"`
}

func (x *NewsletterNotificationViewModel) MarshalJSON() ([]byte, error) {
	return marshalDocument(x, &x.Document)
}
func (x *NewsletterNotificationViewModel) UnmarshalJSON(b []byte) error {
	return decodeDocument(b, x, &x.Document)
}
