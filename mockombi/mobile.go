package mockombi

import (
	"net/http"
	"slices"
	"time"
)

// mobileState holds the devices Ombi's mobile app registered: v1 OneSignal
// player ids (NotificationUserId) and v2 push tokens (MobileDevices). It
// starts empty on every load; the data document does not carry it.
type mobileState struct {
	players []*mobileDevice
	devices []*mobileDevice
}

// mobileDevice is one NotificationUserId (token is the PlayerId) or
// MobileDevices row.
type mobileDevice struct {
	id      int
	token   string
	userID  string
	addedAt time.Time
}

// callerAccount is the account of the caller's principal, nil when none.
func (st *store) callerAccount(p *principal) *account {
	if p == nil {
		return nil
	}
	return st.users.byID(p.id)
}

// mobileAddPlayer is POST /api/v1/Mobile/Notification {playerId}: registers
// the caller's OneSignal id once (MobileController.AddNotitficationId);
// a missing id is 400.
func (s *Server) mobileAddPlayer(w http.ResponseWriter, r *http.Request) {
	s.mobileRegister(w, r, "playerId", func(ms *mobileState) *[]*mobileDevice { return &ms.players }, 0)
}

// mobileAddDevice is POST /api/v2/Mobile/Notification {token}: registers the
// caller's push token once, keeping the newest tokens when a user has more
// than five (V2 MobileController.AddNotitficationId).
func (s *Server) mobileAddDevice(w http.ResponseWriter, r *http.Request) {
	s.mobileRegister(w, r, "token", func(ms *mobileState) *[]*mobileDevice { return &ms.devices }, 5)
}

// mobileRegister adds the body's field as a device of the caller; keep > 0
// trims the user's oldest rows first when more than keep are stored.
func (s *Server) mobileRegister(w http.ResponseWriter, r *http.Request, field string, list func(*mobileState) *[]*mobileDevice, keep int) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	token, _ := fieldFold(in, field).(string)
	if token == "" {
		writeProblem(w, http.StatusBadRequest)
		return
	}
	s.store.Write(func(st *store) {
		acc := st.callerAccount(principalOf(r))
		if acc == nil {
			return
		}
		rows := list(&st.mobile)
		mine := 0
		for _, d := range *rows {
			if d.userID == acc.ID {
				if d.token == token {
					return
				}
				mine++
			}
		}
		if keep > 0 && mine > keep {
			drop := mine - keep
			*rows = slices.DeleteFunc(*rows, func(d *mobileDevice) bool {
				if d.userID == acc.ID && drop > 0 {
					drop--
					return true
				}
				return false
			})
		}
		*rows = append(*rows, &mobileDevice{id: st.nextID("mobileDevice"), token: token, userID: acc.ID, addedAt: s.now()})
	})
	okEmpty(w)
}

// mobileRemoveDevices is DELETE /api/v2/Mobile/Notification: forgets the
// caller's push tokens.
func (s *Server) mobileRemoveDevices(w http.ResponseWriter, r *http.Request) {
	s.store.Write(func(st *store) {
		if acc := st.callerAccount(principalOf(r)); acc != nil {
			st.mobile.devices = slices.DeleteFunc(st.mobile.devices, func(d *mobileDevice) bool { return d.userID == acc.ID })
		}
	})
	okEmpty(w)
}

// mobilePlayerUsers is GET /api/v1/Mobile/Notification: MobileUsersViewModel
// {userId, username (the alias), devices (a count)} for each user with a
// registered player id.
func (s *Server) mobilePlayerUsers(w http.ResponseWriter, _ *http.Request) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		for _, a := range st.users.accounts {
			n := 0
			for _, d := range st.mobile.players {
				if d.userID == a.ID {
					n++
				}
			}
			if n > 0 {
				out = append(out, map[string]any{"userId": a.ID, "username": a.displayName(), "devices": n})
			}
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// mobileRemovePlayers is POST /api/v1/Mobile {userId}: deletes a user's
// player ids and answers true; an unknown user dereferences null inside a
// try block, so the answer is false.
func (s *Server) mobileRemovePlayers(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	id, _ := fieldFold(in, "userId").(string)
	ok := false
	s.store.Write(func(st *store) {
		if st.users.byID(id) == nil {
			return
		}
		ok = true
		st.mobile.players = slices.DeleteFunc(st.mobile.players, func(d *mobileDevice) bool { return d.userID == id })
	})
	writeJSON(w, http.StatusOK, ok)
}

// mobileUsers is GET /api/v2/Mobile/Users: the push tokens grouped by user,
// {userId, username, devices: MobileDevices[] with their user}.
func (s *Server) mobileUsers(w http.ResponseWriter, _ *http.Request) {
	out := []map[string]any{}
	s.store.Read(func(st *store) {
		index := map[string]int{}
		for _, d := range st.mobile.devices {
			var user, name any
			if a := st.users.byID(d.userID); a != nil {
				user, name = a.ombiUser(), a.UserName
			}
			row := map[string]any{"token": d.token, "userId": d.userID, "addedAt": d.addedAt, "user": user, "id": d.id}
			i, seen := index[d.userID]
			if !seen {
				index[d.userID] = len(out)
				out = append(out, map[string]any{"userId": d.userID, "username": name, "devices": []map[string]any{row}})
				continue
			}
			out[i]["devices"] = append(out[i]["devices"].([]map[string]any), row)
		}
	})
	writeJSON(w, http.StatusOK, out)
}

// mobileSend is POST /api/v2/Mobile/Send {userId, message}: pushes the
// message to the user's devices (nothing leaves the mock) and answers an
// empty 200, also when the user or their devices are unknown.
func (s *Server) mobileSend(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	okEmpty(w)
}
