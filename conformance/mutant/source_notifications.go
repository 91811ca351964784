package mutant

// Source mutants of notifications and jobs (02-tool-mapping "Library,
// server, settings and integrations": mass e-mail, jobs, watchlist).
var notificationSources = []Source{
	{
		Name: "massemail-bcc-ignored", Domain: DomainNotifications, Clause: "VERIFY-AUTHZ-EFFECTS-001",
		Description: "the mass e-mail drops bcc, so every recipient sees the others (mass email maps subject/body/bcc)",
		File:        "server/notifications.go",
		Old:         "body := ombi.MassEmailBody{Subject: in.Subject, Body: in.Body, Bcc: in.Bcc}",
		New:         "body := ombi.MassEmailBody{Subject: in.Subject, Body: in.Body}",
		Filter:      "wire", Focus: `write_notification_send`,
	},
	{
		Name: "massemail-body-name", Domain: DomainNotifications, Clause: "VERIFY-ROUTING-LEDGER-001",
		Description: "the mass e-mail sends the text as message instead of the NotificationMessage property body",
		File:        "server/internal/ombi/notifications.go",
		Old:         "Body    string      `json:\"body\"`",
		New:         "Body    string      `json:\"message\"`",
		Filter:      "wire", Focus: `write_notification_send`,
	},
	{
		Name: "massemail-unknown-recipient-skipped", Domain: DomainNotifications, Clause: "VERIFY-AUTHZ-EFFECTS-001",
		Description: "an unknown recipient id is skipped and the e-mail goes to the others",
		File:        "server/notifications.go",
		Old:         "return nil, &ombi.ArgumentError{Field: fmt.Sprintf(\"/user_ids/%d\", i), Message: \"no such user; nothing was sent\"}",
		New:         "_ = i // the others still get it\n\t\t\t\tcontinue",
		Filter:      "wire", Focus: `write_notification_send`,
	},
	{
		Name: "job-outcome-completed", Domain: DomainNotifications, Clause: "VERIFY-AUTHZ-EFFECTS-001",
		Description: "a started job is reported completed (a submitted job is accepted, never completed)",
		File:        "server/jobs.go",
		Old:         "m := mutation{Kind: \"mutation\", Outcome: mutationAccepted}",
		New:         "m := completed()",
		Filter:      "wire", Focus: `write_job_run`,
	},
	{
		Name: "risky-jobs-default-on", Domain: DomainNotifications, Clause: "VERIFY-AUTHZ-EFFECTS-001",
		Description: "without OMBI_ALLOWED_JOBS only the update job stays off; clear-media-server-data, auto-delete and newsletter run",
		File:        "server/jobs.go",
		Old:         "if !slices.Contains(riskyJobs, j) {",
		New:         "if j != \"update\" {",
		Filter:      "wire", Focus: `write_job_run`,
	},
	{
		Name: "job-false-accepted", Domain: DomainNotifications, Clause: "RESULTS-BUSINESS-FAILURE-001",
		Description: "a job upstream refused to start (answer false) is reported accepted",
		File:        "server/jobs.go",
		Old:         "if !ok {\n\t\t\t\treturn nil, &ombi.BusinessError{Message: \"the job was not started (upstream answered false)\"}\n\t\t\t}",
		New:         "_ = ok // the job route answers whether it was queued",
		Filter:      "wire", Focus: `write_job_run`,
	},
	{
		Name: "revalidate-watchlist-get", Domain: DomainNotifications, Clause: "VERIFY-ROUTING-METHODS-001",
		Description: "revalidate_watchlist sends GET Plex/WatchlistUsers/revalidate (it is a POST)",
		File:        "server/internal/ombi/jobs.go",
		Old:         "c.NewRequest(ctx, http.MethodPost, \"api/v1/Plex/WatchlistUsers/revalidate\", nil)",
		New:         "c.NewRequest(ctx, http.MethodGet, \"api/v1/Plex/WatchlistUsers/revalidate\", nil)",
		Filter:      "wire", Focus: `write_job_run\.revalidate_watchlist`,
	},
}
