package db

// Ombi role names (OmbiRoles).
const (
	OmbiRoleAdmin             = "Admin"
	OmbiRolePowerUser         = "PowerUser"
	OmbiRoleAPIUser           = "ApiUser"
	OmbiRoleManageOwnRequests = "ManageOwnRequests"
	OmbiRoleRequestMovie      = "RequestMovie"
	OmbiRoleRequestTV         = "RequestTv"
	OmbiRoleRequestMusic      = "RequestMusic"
	OmbiRoleAutoApproveMovie  = "AutoApproveMovie"
	OmbiRoleAutoApproveTV     = "AutoApproveTv"
	OmbiRoleAutoApproveMusic  = "AutoApproveMusic"
	OmbiRoleDisabled          = "Disabled"
)

// systemUserName is the seeded system user API-key calls act as.
const SystemUserName = "Api"

// ombiRoles maps a mock role to the Ombi roles its account holds.
func ombiRoles(role string) []string {
	switch role {
	case RoleAdmin:
		return []string{OmbiRoleAdmin}
	case RolePowerUser:
		return []string{OmbiRolePowerUser, OmbiRoleRequestMovie, OmbiRoleRequestTV, OmbiRoleRequestMusic}
	default:
		return []string{OmbiRoleRequestMovie, OmbiRoleRequestTV, OmbiRoleRequestMusic}
	}
}
