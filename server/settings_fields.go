package server

// settingsFields is the read and patch allowlist of every settings
// section (04-results: the settings family carries only allowlisted
// non-secret fields). Each entry holds the property names, camelCase as
// Ombi serialises them, of the section's upstream model and of every type
// nested in it: server entries, selected libraries, the combined radarr
// model, notification templates. A leaf is shown only when every key on
// its path is listed here and the deny rules of settings.go also pass; a
// key listed here may still be withheld as a secret or destination.
//
// The names follow the Ombi v4.59.3 models (Ombi.Settings settings models,
// the Ombi.Core notification view models, AboutViewModel,
// PresetThemeViewModel, CustomPageSettings). Properties the upstream
// serialiser ignores (the external services' fullUri, discord and slack
// webhook fragments) are left out. The scalar views carry no property
// names: their single value is named by the section label.
var settingsFields = map[string][]string{
	"ombi": {"id", "baseUrl", "collectAnalyticData", "wizard", "apiKey", "doNotSendNotificationsForAutoApprove",
		"hideRequestsUsers", "disableHealthChecks", "defaultLanguageCode", "autoDeleteAvailableRequests",
		"autoDeleteAfterDays", "branch", "hasMigratedOldTvDbData", "set"},
	"customization": {"id", "applicationName", "applicationUrl", "customCss", "enableCustomDonations",
		"customDonationUrl", "customDonationMessage", "logo", "recentlyAddedPage", "useCustomPage",
		"hideAvailableFromDiscover", "favicon", "hideAvailableRecentlyRequested"},
	"landing_page": {"id", "enabled", "noticeEnabled", "noticeText", "timeLimit", "startDateTime", "endDateTime", "expired"},
	"authentication": {"id", "allowNoPassword", "requireDigit", "requiredLength", "requireLowercase",
		"requireNonAlphanumeric", "requireUppercase", "enableOAuth", "enableHeaderAuth", "headerAuthVariable",
		"headerAuthCreateUser"},
	"issues": {"id", "enabled", "enableInProgress", "deleteIssues", "daysAfterResolvedToDelete"},
	"vote":   {"id", "enabled", "movieVoteMax", "musicVoteMax", "tvShowVoteMax"},
	"user_management": {"id", "importPlexAdmin", "importPlexUsers", "cleanupPlexUsers", "importEmbyUsers",
		"importJellyfinUsers", "movieRequestLimit", "movieRequestLimitType", "episodeRequestLimit",
		"episodeRequestLimitType", "musicRequestLimit", "musicRequestLimitType", "defaultStreamingCountry",
		"defaultRoles", "bannedPlexUserIds", "bannedEmbyUserIds", "bannedJellyfinUserIds"},
	"update": {"id", "autoUpdateEnabled", "username", "password", "processName", "useScript", "scriptLocation",
		"windowsServiceName", "windowsService", "testMode", "updateSchedule"},
	"jobs": {"id", "embyContentSync", "embyRecentlyAddedSync", "jellyfinContentSync", "sonarrSync", "radarrSync",
		"plexContentSync", "plexRecentlyAddedSync", "couchPotatoSync", "automaticUpdater", "userImporter",
		"sickRageSync", "newsletter", "lidarrArtistSync", "issuesPurge", "retryRequests", "mediaDatabaseRefresh",
		"autoDeleteRequests", "plexWatchlistImport"},
	"plex": {"id", "enable", "enableWatchlistImport", "monitorAll", "installId", "servers",
		// servers[]: external service fields plus the plex server's own
		"ssl", "subDir", "ip", "port", "name", "plexAuthToken", "machineIdentifier", "episodeBatchSize",
		"serverHostname", "plexSelectedLibraries",
		// plexSelectedLibraries[]
		"key", "title", "enabled"},
	"emby": {"id", "enable", "servers",
		"ssl", "subDir", "ip", "port", "serverId", "name", "apiKey", "administratorId", "serverHostname",
		"enableEpisodeSearching", "embySelectedLibraries",
		"key", "title", "collectionType", "enabled"},
	"jellyfin": {"id", "enable", "servers",
		"ssl", "subDir", "ip", "port", "serverId", "name", "apiKey", "administratorId", "serverHostname",
		"enableEpisodeSearching", "jellyfinSelectedLibraries",
		"key", "title", "collectionType", "enabled"},
	"sonarr": {"id", "ssl", "subDir", "ip", "port", "enabled", "apiKey", "qualityProfile", "seasonFolders",
		"rootPath", "qualityProfileAnime", "rootPathAnime", "animeTag", "tag", "sendUserTags", "addOnly",
		"languageProfile", "languageProfileAnime", "scanForAvailability", "prioritizeArrAvailability"},
	// The radarr route carries the combined model {radarr, radarr4K}.
	"radarr": {"radarr", "radarr4K",
		"id", "ssl", "subDir", "ip", "port", "enabled", "apiKey", "defaultQualityProfile", "defaultRootPath",
		"addOnly", "minimumAvailability", "scanForAvailability", "prioritizeArrAvailability", "tag", "sendUserTags"},
	"lidarr": {"id", "ssl", "subDir", "ip", "port", "enabled", "apiKey", "defaultQualityProfile", "defaultRootPath",
		"albumFolder", "metadataProfileId", "addOnly"},
	"couchpotato": {"id", "ssl", "subDir", "ip", "port", "enabled", "apiKey", "defaultProfileId", "username", "password"},
	"dognzb":      {"id", "enabled", "apiKey", "movies", "tvShows"},
	"sickrage": {"id", "ssl", "subDir", "ip", "port", "enabled", "apiKey", "qualityProfile",
		// qualities[] is a fixed list of {value, display}
		"qualities", "value", "display"},
	"themoviedb": {"id", "showAdultMovies", "excludedKeywordIds", "excludedMovieGenreIds", "excludedTvGenreIds", "originalLanguages"},
	"notifications_email": withTemplates("enabled", "host", "password", "port", "senderName", "senderAddress",
		"username", "authentication", "disableTLS", "disableCertificateChecking"),
	"notifications_discord":    withTemplates("enabled", "webhookUrl", "username", "icon", "hideUser"),
	"notifications_telegram":   withTemplates("enabled", "botApi", "chatId", "parseMode"),
	"notifications_pushbullet": withTemplates("enabled", "accessToken", "channelTag"),
	"notifications_pushover":   withTemplates("enabled", "accessToken", "userToken", "priority", "sound"),
	"notifications_slack":      withTemplates("enabled", "webhookUrl", "channel", "username", "iconEmoji", "iconUrl"),
	"notifications_mattermost": withTemplates("webhookUrl", "channel", "username", "iconUrl", "enabled"),
	// The twilio route carries {id, whatsAppSettings{..., notificationTemplates[]}}.
	"notifications_twilio":  withTemplates("whatsAppSettings", "enabled", "from", "accountSid", "authToken"),
	"notifications_mobile":  withTemplates(),
	"notifications_gotify":  withTemplates("enabled", "baseUrl", "applicationToken", "priority"),
	"notifications_ntfy":    withTemplates("enabled", "baseUrl", "topic", "authorizationHeader", "priority"),
	"notifications_webhook": {"id", "enabled", "webhookUrl", "applicationToken"},
	// The newsletter carries one template object, notificationTemplate.
	"notifications_newsletter": {"id", "disableTv", "disableMovies", "disableMusic", "enabled", "externalEmails",
		"notificationTemplate", "notificationType", "agent", "subject", "message"},
	"about": {"version", "branch", "frameworkDescription", "osArchitecture", "osDescription", "processArchitecture",
		"applicationBasePath", "ombiDatabaseType", "externalDatabaseType", "settingsDatabaseType",
		"ombiConnectionString", "externalConnectionString", "settingsConnectionString", "storagePath", "notSupported"},
	// themes is an array of preset themes.
	"themes":           {"fullName", "displayName", "version", "url"},
	"issues_enabled":   {},
	"vote_enabled":     {},
	"lidarr_enabled":   {},
	"email_enabled":    {},
	"default_language": {},
	"base_url":         {},
	"custom_page":      {"id", "title", "html", "fontAwesomeIcon"},
}

// withTemplates lists a notification agent's own fields with the record
// id and the fields of its notificationTemplates entries.
func withTemplates(fields ...string) []string {
	return append([]string{"id", "notificationTemplates", "notificationType", "agent", "subject", "message", "enabled"}, fields...)
}
