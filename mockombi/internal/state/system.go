package state

import "time"

// UserStatsSummary is Ombi's UserStatsSummary, the request statistics of a
// period; a most-requesting user is null when the period has no request
// of the kind.
type UserStatsSummary struct {
	CompletedRequests       int       `json:"completedRequests"`
	CompletedRequestsMovies int       `json:"completedRequestsMovies"`
	CompletedRequestsTv     int       `json:"completedRequestsTv"`
	MostRequestedUserMovie  *OmbiUser `json:"mostRequestedUserMovie"`
	MostRequestedUserTv     *OmbiUser `json:"mostRequestedUserTv"`
	TotalIssues             int       `json:"totalIssues"`
	TotalMovieRequests      int       `json:"totalMovieRequests"`
	TotalRequests           int       `json:"totalRequests"`
	TotalTvRequests         int       `json:"totalTvRequests"`
}

// UpdateModel is Ombi's UpdateModel, the release GET Update reports.
type UpdateModel struct {
	ChangeLogs          string      `json:"changeLogs"`
	Downloads           []Downloads `json:"downloads"`
	UpdateAvailable     bool        `json:"updateAvailable"`
	UpdateDate          time.Time   `json:"updateDate"`
	UpdateVersion       int         `json:"updateVersion"`
	UpdateVersionString string      `json:"updateVersionString"`
}

// Downloads is one file of an UpdateModel's release.
type Downloads struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// LogFile is one log file of GET System/logs (unless the
// logs_string_array quirk answers bare names).
type LogFile struct {
	LastModified time.Time `json:"lastModified"`
	Name         string    `json:"name"`
	Size         int       `json:"size"`
}

// HubUser is one user of GET Hub/Users, connected to the notification hub.
type HubUser struct {
	DisplayName string `json:"displayName"`
	UserID      string `json:"userId"`
	UserType    int    `json:"userType"`
}

// WizardStatus is the answer of GET Status/Wizard: whether the wizard ran.
type WizardStatus struct {
	Result bool `json:"result"`
}
