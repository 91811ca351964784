package db

import "time"

// Moderation is one state change on a request.
type Moderation int

// The moderation actions.
const (
	ModApprove Moderation = iota
	ModDeny
	ModAvailable
	ModUnavailable
)

// Moderate applies an action to a base request as Ombi's engines do (see
// modFields.apply); a movie's 4K half is moderate4K's.
func (b *ReqBase) Moderate(act Moderation, reason string, now time.Time) {
	modFields{&b.Approved, &b.MarkedAsApproved, &b.Denied, &b.DeniedReason, &b.Available, &b.MarkedAsAvailable}.apply(act, reason, now)
}

// Moderate applies an action to a TV child request and its episodes:
// approve also marks them requested, deny leaves them alone.
func (c *ChildRequest) Moderate(act Moderation, reason string, now time.Time) {
	c.ReqBase.Moderate(act, reason, now)
	for _, s := range c.SeasonRequests {
		for _, e := range s.Episodes {
			switch act {
			case ModApprove:
				e.Approved, e.Requested = true, true
			case ModAvailable:
				e.Available = true
			case ModUnavailable:
				e.Available = false
			}
		}
	}
}

// Moderate4K applies an action to the 4K half of a movie request, as
// reqBase.moderate does to the other half.
func (m *MovieRequest) Moderate4K(act Moderation, reason string, now time.Time) {
	modFields{&m.Approved4K, &m.MarkedAsApproved4K, &m.Denied4K, &m.DeniedReason4K, &m.Available4K, &m.MarkedAsAvailable4K}.apply(act, reason, now)
}

// modFields are the fields moderation sets on one half of a request: the
// BaseRequest's, or their 4K twins on a movie request.
type modFields struct {
	approved        *bool
	markedApproved  *time.Time
	denied          **bool
	deniedReason    *string
	available       *bool
	markedAvailable **time.Time
}

// apply sets the fields for an action as Ombi's engines do: approve clears
// denied, deny leaves approved and markedAsDenied alone, unavailable keeps
// markedAsAvailable.
func (f modFields) apply(act Moderation, reason string, now time.Time) {
	switch act {
	case ModApprove:
		no := false
		*f.approved, *f.markedApproved, *f.denied = true, now, &no
	case ModDeny:
		yes := true
		*f.denied, *f.deniedReason = &yes, reason
	case ModAvailable:
		*f.available, *f.markedAvailable = true, &now
	case ModUnavailable:
		*f.available = false
	}
}
