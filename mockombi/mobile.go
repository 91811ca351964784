package mockombi

import (
	"net/http"
	"slices"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// callerAccount is the account of the caller's principal, nil when none.
func (st *store) callerAccount(p *principal) *db.Account {
	if p == nil {
		return nil
	}
	return st.Users.ByID(p.id)
}

// mobileAddPlayer is POST /api/v1/Mobile/Notification {playerId}: registers
// the caller's OneSignal id once (MobileController.AddNotitficationId);
// a missing id is 400.
func (s *Server) mobileAddPlayer(w http.ResponseWriter, r *http.Request) {
	s.mobileRegister(w, r, "playerId", func(ms *state.Mobile) *[]*state.MobileDevice { return &ms.Players }, 0)
}

// mobileAddDevice is POST /api/v2/Mobile/Notification {token}: registers the
// caller's push token once, keeping the newest tokens when a user has more
// than five (V2 MobileController.AddNotitficationId).
func (s *Server) mobileAddDevice(w http.ResponseWriter, r *http.Request) {
	s.mobileRegister(w, r, "token", func(ms *state.Mobile) *[]*state.MobileDevice { return &ms.Devices }, 5)
}

// mobileRegister adds the body's field as a device of the caller; keep > 0
// trims the user's oldest rows first when more than keep are stored.
func (s *Server) mobileRegister(w http.ResponseWriter, r *http.Request, field string, list func(*state.Mobile) *[]*state.MobileDevice, keep int) {
	var in map[string]any
	if !decodeBody(w, r, &in) {
		return
	}
	token, _ := db.FieldFold(in, field).(string)
	if token == "" {
		writeProblem(w, http.StatusBadRequest)
		return
	}
	s.store.Write(func(st *store) {
		acc := st.callerAccount(principalOf(r))
		if acc == nil {
			return
		}
		rows := list(&st.Mobile)
		mine := 0
		for _, d := range *rows {
			if d.UserID == acc.ID {
				if d.Token == token {
					return
				}
				mine++
			}
		}
		if keep > 0 && mine > keep {
			drop := mine - keep
			*rows = slices.DeleteFunc(*rows, func(d *state.MobileDevice) bool {
				if d.UserID == acc.ID && drop > 0 {
					drop--
					return true
				}
				return false
			})
		}
		*rows = append(*rows, &state.MobileDevice{ID: st.NextID("mobileDevice"), Token: token, UserID: acc.ID, AddedAt: s.now()})
	})
	okEmpty(w)
}

// mobileRemoveDevices is DELETE /api/v2/Mobile/Notification: forgets the
// caller's push tokens.
func (s *Server) mobileRemoveDevices(w http.ResponseWriter, r *http.Request) {
	s.store.Write(func(st *store) {
		if acc := st.callerAccount(principalOf(r)); acc != nil {
			st.Mobile.Devices = slices.DeleteFunc(st.Mobile.Devices, func(d *state.MobileDevice) bool { return d.UserID == acc.ID })
		}
	})
	okEmpty(w)
}

// mobilePlayerUsers is GET /api/v1/Mobile/Notification: MobileUsersViewModel
// {userId, username (the alias), devices (a count)} for each user with a
// registered player id.
func (s *Server) mobilePlayerUsers(w http.ResponseWriter, _ *http.Request) {
	out := []state.MobileUsersViewModel{}
	s.store.Read(func(st *store) {
		for _, a := range st.Users.Accounts {
			n := 0
			for _, d := range st.Mobile.Players {
				if d.UserID == a.ID {
					n++
				}
			}
			if n > 0 {
				out = append(out, state.MobileUsersViewModel{UserID: a.ID, Username: a.DisplayName(), Devices: n})
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
	id, _ := db.FieldFold(in, "userId").(string)
	ok := false
	s.store.Write(func(st *store) {
		if st.Users.ByID(id) == nil {
			return
		}
		ok = true
		st.Mobile.Players = slices.DeleteFunc(st.Mobile.Players, func(d *state.MobileDevice) bool { return d.UserID == id })
	})
	writeJSON(w, http.StatusOK, ok)
}

// mobileUsers is GET /api/v2/Mobile/Users: the push tokens grouped by user,
// {userId, username, devices: MobileDevices[] with their user}.
func (s *Server) mobileUsers(w http.ResponseWriter, _ *http.Request) {
	out := []*state.MobileUserDevices{}
	s.store.Read(func(st *store) {
		index := map[string]int{}
		for _, d := range st.Mobile.Devices {
			row := &state.MobileDeviceView{Token: d.Token, UserID: d.UserID, AddedAt: d.AddedAt, ID: d.ID}
			var name *string
			if a := st.Users.ByID(d.UserID); a != nil {
				n := a.UserName // a copy: the answer is written after the lock
				row.User, name = a.OmbiUser(), &n
			}
			i, seen := index[d.UserID]
			if !seen {
				index[d.UserID] = len(out)
				out = append(out, &state.MobileUserDevices{UserID: d.UserID, Username: name, Devices: []*state.MobileDeviceView{row}})
				continue
			}
			out[i].Devices = append(out[i].Devices, row)
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
