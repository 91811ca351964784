package db

import (
	"strconv"
	"strings"
	"time"
)

// LogFile is one Serilog daily file under <storage>/Logs.
type LogFile struct {
	Name     string
	Modified time.Time
	Text     string
}

// SystemState holds log files and the jobs that were triggered.
type SystemState struct {
	Logs    []LogFile
	JobRuns map[string]int
}

// newSystemState generates the log files: three days of realistic lines in
// the default set, a 100,000-line latest file in the large set. Secrets
// leaked into log lines are planted canaries.
func newSystemState(sd *seedSet) (SystemState, error) {
	conn := sd.plant("log_connection_string", "System/logs/log20261129.txt: MySQL connection string password")
	plex := sd.plant("log_plex_token", "System/logs/log20261129.txt: X-Plex-Token query parameter")
	apiKey := sd.plant("log_sonarr_apikey", "System/logs/log20261128.txt: Sonarr ApiKey header")
	latest := 400
	if sd.large {
		latest = 100000
	}
	days := []struct {
		name  string
		day   time.Time
		lines int
	}{
		{"log20261129.txt", time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC), latest},
		{"log20261128.txt", time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), 300},
		{"log20261127.txt", time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC), 200},
	}
	var ss SystemState
	ss.JobRuns = map[string]int{}
	for _, d := range days {
		var b strings.Builder
		for i := range d.lines {
			ts := d.day.Add(time.Duration(i) * 37 * time.Second)
			b.WriteString(logLine(ts, i, d.name, conn, plex, apiKey))
			b.WriteByte('\n')
		}
		ss.Logs = append(ss.Logs, LogFile{Name: d.name, Modified: d.day.Add(23 * time.Hour), Text: b.String()})
	}
	return ss, nil
}

// logLine renders one Serilog line; a few carry leaked secrets the way real
// Ombi logs do (EF connection errors, Plex URLs, Arr request headers).
func logLine(ts time.Time, i int, file, conn, plex, apiKey string) string {
	stamp := ts.Format("2006-01-02 15:04:05.000 -07:00")
	switch {
	case i == 7 && file == "log20261129.txt":
		return stamp + " [Error] An error occurred using the connection to database 'Ombi' on server 'db'. Connection string: Server=db;Port=3306;Database=Ombi;User=ombi;Password=" + conn
	case i == 13 && file == "log20261129.txt":
		return stamp + " [Warning] Plex request failed: GET https://plex.example.org:32400/library/sections?X-Plex-Token=" + plex
	case i == 5 && file == "log20261128.txt":
		return stamp + " [Debug] Sending GET http://192.168.1.30:8989/api/v3/system/status with header X-Api-Key: " + apiKey
	}
	msgs := []string{
		"[Information] Starting Plex Content Cacher",
		"[Information] Finished Plex Content Cacher, found 1843 items",
		"[Debug] Request finished HTTP/1.1 GET http://ombi:5000/api/v1/Status - 200",
		"[Information] Starting Sonarr sync",
		"[Warning] TheMovieDb rate limit reached, retrying in 2 seconds",
		"[Information] Running job Ombi.Schedule.Jobs.Ombi.IssuesPurge",
		"[Error] Exception in Radarr availability checker: System.Net.Http.HttpRequestException: Connection refused (192.168.1.31:7878)",
	}
	return stamp + " " + msgs[i%len(msgs)] + " #" + strconv.Itoa(i)
}

// Find returns a log file by exact name.
func (ss *SystemState) Find(name string) *LogFile {
	for i := range ss.Logs {
		if ss.Logs[i].Name == name {
			return &ss.Logs[i]
		}
	}
	return nil
}
