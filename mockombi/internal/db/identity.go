package db

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// allOmbiRoles lists every role Ombi seeds (OmbiRoles), in claims order.
var AllOmbiRoles = []string{OmbiRoleAdmin, OmbiRoleAutoApproveMovie, OmbiRoleAutoApproveTV, OmbiRoleAutoApproveMusic,
	OmbiRolePowerUser, OmbiRoleRequestTV, OmbiRoleRequestMovie, OmbiRoleRequestMusic, OmbiRoleDisabled,
	"ReceivesNewsletter", OmbiRoleManageOwnRequests, "EditCustomPage", "Request4KMovie", "AutoApprove4KMovie"}

// NotificationPref is one UserNotificationPreferences row.
type NotificationPref struct {
	ID      int
	Agent   int
	Enabled bool
	Value   string
}

// IdentityState holds the saved notification preferences, keyed by user
// name (lower case), in insertion order.
type IdentityState struct {
	Prefs map[string][]*NotificationPref
}

// newIdentityState loads notification_preferences.json.
func newIdentityState(sd *seedSet) (IdentityState, error) {
	var seed map[string]map[string]struct {
		Value   string `json:"value"`
		Enabled bool   `json:"enabled"`
	}
	if err := sd.decode("notification_preferences.json", &seed); err != nil {
		return IdentityState{}, err
	}
	is := IdentityState{Prefs: map[string][]*NotificationPref{}}
	names := make([]string, 0, len(seed))
	for n := range seed {
		names = append(names, n)
	}
	slices.Sort(names)
	next := 0
	for _, name := range names {
		agents := make([]int, 0, len(seed[name]))
		for agentKey := range seed[name] {
			agent, err := strconv.Atoi(agentKey)
			if err != nil {
				return IdentityState{}, fmt.Errorf("decode notification preference of %s: agent %q is not a number", name, agentKey)
			}
			agents = append(agents, agent)
		}
		slices.Sort(agents)
		for _, agent := range agents {
			p := seed[name][strconv.Itoa(agent)]
			next++
			is.Prefs[strings.ToLower(name)] = append(is.Prefs[strings.ToLower(name)],
				&NotificationPref{ID: next, Agent: agent, Enabled: p.Enabled, Value: p.Value})
		}
	}
	sd.seenID("notificationPreference", next)
	return is, nil
}

// ByEmail finds an account by email, ignoring case (FindByEmailAsync).
func (us *UserState) ByEmail(email string) *Account {
	if email == "" {
		return nil
	}
	return findBy(us.Accounts, func(a *Account) bool { return strings.EqualFold(a.Email, email) })
}
