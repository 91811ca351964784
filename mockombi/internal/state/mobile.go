package state

import "time"

// Mobile holds the devices Ombi's mobile app registered: v1 OneSignal
// player ids (NotificationUserId) and v2 push tokens (MobileDevices). It
// starts empty on every load; a data document does not carry it.
type Mobile struct {
	Players []*MobileDevice
	Devices []*MobileDevice
}

// MobileDevice is one NotificationUserId row (Token is the PlayerId) or
// MobileDevices row.
type MobileDevice struct {
	ID      int
	Token   string
	UserID  string
	AddedAt time.Time
}

// MobileUsersViewModel is Ombi's MobileUsersViewModel, v1: a user with a
// count of registered player ids.
type MobileUsersViewModel struct {
	Devices  int    `json:"devices"`
	UserID   string `json:"userId"`
	Username string `json:"username"`
}

// MobileDeviceView is Ombi's MobileDevices entity with its user.
type MobileDeviceView struct {
	AddedAt time.Time `json:"addedAt"`
	ID      int       `json:"id"`
	Token   string    `json:"token"`
	User    *OmbiUser `json:"user"`
	UserID  string    `json:"userId"`
}

// MobileUserDevices is a user's push tokens, as v2 GET Mobile/Users groups
// them; Username is null for a user that is gone.
type MobileUserDevices struct {
	Devices  []*MobileDeviceView `json:"devices"`
	UserID   string              `json:"userId"`
	Username *string             `json:"username"`
}
