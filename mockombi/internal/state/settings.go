package state

// The settings themselves are documents the mock stores as a data file
// gives them; these are the answers of the settings routes that are not
// a settings document.

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
