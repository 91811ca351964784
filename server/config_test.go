package server

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// env is a lookupEnv reading m: a key in m is set, even to "".
func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestOptionsFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr []string
		check   func(t *testing.T, o Options)
	}{
		{name: "jwt", env: map[string]string{"OMBI_URL": "http://h/ombi", "OMBI_AUTH_MODE": "jwt", "OMBI_USERNAME": "u", "OMBI_PASSWORD": "p", "OMBI_TIMEOUT": "5s", "OMBI_BUNDLES": "core, moderation"},
			check: func(t *testing.T, o Options) {
				if o.Timeout != 5*time.Second || len(o.Bundles) != 2 || o.Bundles[1] != "moderation" {
					t.Fatalf("%+v", o)
				}
			}},
		{name: "api key defaults", env: map[string]string{"OMBI_URL": "https://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k"},
			check: func(t *testing.T, o Options) {
				if o.timeout() != DefaultTimeout || !o.bundles()["core"] || len(o.bundles()) != 1 {
					t.Fatalf("%+v", o)
				}
			}},
		{name: "deployment lists", env: map[string]string{"OMBI_URL": "https://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k",
			"OMBI_ALLOWED_JOBS": " update, newsletter ,", "OMBI_PROFILES": "discord:default,radarr:4k"},
			check: func(t *testing.T, o Options) {
				if !reflect.DeepEqual(o.AllowedJobs, []string{"update", "newsletter"}) || !reflect.DeepEqual(o.Profiles, []string{"discord:default", "radarr:4k"}) {
					t.Fatalf("jobs %q, profiles %q", o.AllowedJobs, o.Profiles)
				}
			}},
		{name: "bundles in effect when none given", env: map[string]string{"OMBI_URL": "https://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_BUNDLES": " , "},
			check: func(t *testing.T, o Options) {
				if !reflect.DeepEqual(o.Bundles, []string{"core"}) {
					t.Fatalf("bundles %q, want [core]: the default in effect", o.Bundles)
				}
			}},
		{name: "nothing", env: map[string]string{}, wantErr: []string{"OMBI_URL", "OMBI_AUTH_MODE"}},
		{name: "jwt without password", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "jwt", "OMBI_USERNAME": "u"}, wantErr: []string{"OMBI_PASSWORD"}},
		{name: "api key missing", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key"}, wantErr: []string{"OMBI_API_KEY"}},
		{name: "bad mode", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "basic"}, wantErr: []string{"OMBI_AUTH_MODE"}},
		{name: "bad url", env: map[string]string{"OMBI_URL": "ftp://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k"}, wantErr: []string{"OMBI_URL"}},
		{name: "credentials in url", env: map[string]string{"OMBI_URL": "http://u:hunter2@h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k"}, wantErr: []string{"OMBI_URL"}},
		{name: "bad bundle", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_BUNDLES": "core,admin"}, wantErr: []string{"OMBI_BUNDLES"}},
		{name: "tool subset", env: map[string]string{"OMBI_URL": "https://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_TOOLS": "read_search, read_media"},
			check: func(t *testing.T, o Options) {
				if !reflect.DeepEqual(o.Tools, []string{"read_search", "read_media"}) {
					t.Fatalf("tools %q", o.Tools)
				}
			}},
		{name: "unknown tool", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_TOOLS": "read_search,ombi_read_media"}, wantErr: []string{"OMBI_TOOLS", "ombi_read_media"}},
		{name: "reference ttl", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_REFERENCE_TTL": "90s"},
			check: func(t *testing.T, o Options) {
				if o.referenceTTL() != 90*time.Second {
					t.Fatalf("reference TTL %v, want 90s", o.referenceTTL())
				}
			}},
		{name: "bad reference ttl", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_REFERENCE_TTL": "an hour"}, wantErr: []string{"OMBI_REFERENCE_TTL"}},
		{name: "zero reference ttl", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_REFERENCE_TTL": "0s"}, wantErr: []string{"OMBI_REFERENCE_TTL"}},
		{name: "bad timeout", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_TIMEOUT": "soon"}, wantErr: []string{"OMBI_TIMEOUT"}},
		{name: "zero timeout", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_TIMEOUT": "0s"}, wantErr: []string{"OMBI_TIMEOUT"}},
		{name: "negative timeout", env: map[string]string{"OMBI_URL": "http://h", "OMBI_AUTH_MODE": "api_key", "OMBI_API_KEY": "k", "OMBI_TIMEOUT": "-1s"}, wantErr: []string{"OMBI_TIMEOUT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := OptionsFromEnv(env(tt.env))
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("OptionsFromEnv: %v", err)
				}
				tt.check(t, o)
				return
			}
			if err == nil {
				t.Fatal("want an error")
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %s", err, w)
				}
			}
			for _, secret := range []string{"hunter2"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error leaks a secret: %q", err)
				}
			}
		})
	}
}
