package server

import "github.com/ombi-mcp/ombi-mcp/server/internal/ombi"

// NewClient builds the upstream client from validated Options.
func newClient(o Options) (*ombi.Client, error) {
	return ombi.NewClient(ombi.Config{
		URL: o.URL, HTTPClient: o.HTTPClient, AuthMode: o.AuthMode,
		Username: o.Username, Password: o.Password, APIKey: o.APIKey, UserName: o.UserName,
		Timeout: o.timeout(), MaxBodyBytes: o.maxBody(), BodyBudgetBytes: o.bodyBudget(), Logger: o.logger(),
	})
}
