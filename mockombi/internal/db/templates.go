package db

import (
	"slices"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// This file seeds the notification templates the way Ombi's OmbiContext
// does on an empty database (src/Ombi.Store/Context/OmbiContext.cs): one
// template per agent and notification type, in agent then type order, with
// ids counting up from 1, skipped for Test, AdminNote and
// PlexWatchlistTokenExpired and, except for Email, WelcomeEmail. Each
// settings page then shows its agent's templates as
// SettingsController.BuildTemplates does: ordered by the type's name,
// without Newsletter (the newsletter page shows the Email agent's one) and,
// except for Email, without WelcomeEmail. Twilio's come under
// whatsAppSettings; webhook's page has none.

// notificationAgentSections maps NotificationAgent values (Ombi.Helpers) to
// the settings section that shows their templates.
var notificationAgentSections = []struct {
	agent   int
	section string
}{
	{0, "notifications/email"}, {1, "notifications/discord"}, {2, "notifications/pushbullet"},
	{3, "notifications/pushover"}, {4, "notifications/telegram"}, {5, "notifications/slack"},
	{6, "notifications/mattermost"}, {7, "notifications/mobile"}, {8, "notifications/gotify"},
	{9, "notifications/webhook"}, {10, "notifications/twilio"}, {11, "notifications/ntfy"},
}

// notificationTypeNames are the NotificationType names by value.
var notificationTypeNames = []string{"NewRequest", "Issue", "RequestAvailable", "RequestApproved", "AdminNote", "Test",
	"RequestDeclined", "ItemAddedToFaultQueue", "WelcomeEmail", "IssueResolved", "IssueComment", "Newsletter",
	"PartiallyAvailable", "PlexWatchlistTokenExpired", "RequestDeleted", "IssueInProgress", "IssueDeleted"}

// Notification types with special handling.
const (
	notifyWelcomeEmail = 8
	notifyNewsletter   = 11
)

// seedTemplateTexts are the subject and message Ombi seeds for each
// notification type; types without an entry are not seeded.
var seedTemplateTexts = map[int][2]string{
	0:  {"{ApplicationName}: New {Type} request for {Title}!", "Hello! The user '{UserName}' has requested the {Type} '{Title}'! Please log in to approve this request. Request Date: {RequestedDate}"},
	1:  {"{ApplicationName}: New issue for {Title}!", "Hello! The user '{UserName}' has reported a new issue for the title {Title}! </br> {IssueCategory} - {IssueSubject} : {IssueDescription}"},
	2:  {"{ApplicationName}: {Title} is now available!", "Hello! Your request for {Title} on {ApplicationName} is now available! :)"},
	3:  {"{ApplicationName}: your request has been approved", "Hello! Your request for {Title} has been approved!"},
	6:  {"{ApplicationName}: your request has been declined", "Hello! Your request for {Title} has been declined, Sorry!"},
	7:  {"Item Added To Retry Queue", "Hello! The user '{UserName}' has requested {Title} but it could not be added. This has been added into the requests queue and will keep retrying"},
	8:  {"Invite to {ApplicationName}", "Hello! You have been invited to use {ApplicationName}! You can login here: {ApplicationUrl}"},
	9:  {"{ApplicationName}: Issue has been resolved for {Title}!", "Hello {UserName} Your issue for {Title} has now been resolved."},
	10: {"{ApplicationName}: New comment on issue {IssueSubject}!", "Hello, There is a new comment on your issue {IssueSubject}, The comment is: {NewIssueComment}"},
	11: {"{ApplicationName}: Recently Added Content!", "Here is a list of Movies and TV Shows that have recently been added!"},
	12: {"{ApplicationName}: Partially Available Request!", "Your TV request for {Title} is now partially available! Episodes {PartiallyAvailableEpisodesList}!"},
	14: {"{ApplicationName}: your request has been deleted", "Hello! Your request for {Title} has been deleted."},
	15: {"{ApplicationName}: Issue is now in progress for {Title}!", "Hello {UserName} Your issue for {Title} is now in progress."},
	16: {"{ApplicationName}: Issue deleted for {Title}", "Hello {UserName} Your issue for {Title} has been deleted."},
}

// templateKey is a template's (agent, notification type).
type templateKey struct{ agent, typ int }

// templateSection is where a section keeps its templates: the document
// and its list (nil when the settings do not carry the section). Twilio's
// are under whatsAppSettings, as its view model has them.
func templateSection(s *state.Settings, section string) (doc *state.Document, list *[]*state.NotificationTemplate) {
	switch section {
	case "notifications/email":
		if d := s.Email; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/discord":
		if d := s.Discord; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/pushbullet":
		if d := s.Pushbullet; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/pushover":
		if d := s.Pushover; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/telegram":
		if d := s.Telegram; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/slack":
		if d := s.Slack; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/mattermost":
		if d := s.Mattermost; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/mobile":
		if d := s.Mobile; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/gotify":
		if d := s.Gotify; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/ntfy":
		if d := s.Ntfy; d != nil {
			return &d.Document, &d.NotificationTemplates
		}
	case "notifications/webhook":
		if d := s.Webhook; d != nil {
			return &d.Document, nil
		}
	case "notifications/twilio":
		if d := s.Twilio; d != nil {
			if d.WhatsAppSettings == nil {
				return &d.Document, nil
			}
			return &d.Document, &d.WhatsAppSettings.NotificationTemplates
		}
	}
	return nil, nil
}

// seedNotificationTemplates fills every notification section with its
// agent's templates: those the data gives keep their text and id, the
// others are seeded with Ombi's text and the id Ombi's seeding order gives
// them (or, when the data already uses that id, one past the highest).
func seedNotificationTemplates(s *state.Settings) {
	given := map[templateKey]*state.NotificationTemplate{}
	used := map[int]bool{}
	maxID := 0
	note := func(t *state.NotificationTemplate) {
		if t == nil {
			return
		}
		given[templateKey{t.Agent, t.NotificationType}] = t
		if t.HasMember("id") {
			used[t.ID] = true
			maxID = max(maxID, t.ID)
		}
	}
	for _, a := range notificationAgentSections {
		var list []*state.NotificationTemplate
		if _, l := templateSection(s, a.section); l != nil {
			list = *l
		}
		if a.section == "notifications/twilio" && s.Twilio != nil {
			list = append(list, s.Twilio.NotificationTemplates...) // older mocks kept them at the top level
		}
		for _, t := range list {
			note(t)
		}
	}
	if nl := s.Newsletter; nl != nil {
		note(nl.NotificationTemplate)
	}
	all := map[templateKey]*state.NotificationTemplate{}
	seq := 0
	for _, a := range notificationAgentSections {
		for typ := range notificationTypeNames {
			text, seeded := seedTemplateTexts[typ]
			if !seeded || typ == notifyWelcomeEmail && a.agent != 0 {
				continue
			}
			seq++
			k := templateKey{a.agent, typ}
			if t, ok := given[k]; ok {
				all[k] = t
				continue
			}
			id := seq
			if used[id] {
				maxID++
				id = maxID
			}
			used[id] = true
			all[k] = &state.NotificationTemplate{ID: id, NotificationType: typ, Agent: a.agent, Subject: &text[0], Message: &text[1], Enabled: true}
		}
	}
	for _, a := range notificationAgentSections {
		doc, _ := templateSection(s, a.section)
		if doc == nil {
			continue
		}
		list := []*state.NotificationTemplate{}
		for typ := range notificationTypeNames {
			t, ok := all[templateKey{a.agent, typ}]
			if !ok || typ == notifyNewsletter {
				continue
			}
			list = append(list, t)
		}
		slices.SortStableFunc(list, func(x, y *state.NotificationTemplate) int {
			return strings.Compare(TemplateTypeName(x.NotificationType), TemplateTypeName(y.NotificationType))
		})
		switch a.section {
		case "notifications/webhook":
			s.Webhook.NotificationTemplates = nil
			doc.DropMember("notificationTemplates")
		case "notifications/twilio":
			s.Twilio.NotificationTemplates = nil
			doc.DropMember("notificationTemplates")
			if s.Twilio.WhatsAppSettings == nil {
				s.Twilio.WhatsAppSettings = &state.WhatsAppSettingsViewModel{}
				s.Twilio.SetMember("whatsAppSettings")
			}
			s.Twilio.WhatsAppSettings.NotificationTemplates = list
			s.Twilio.WhatsAppSettings.SetMember("notificationTemplates")
		default:
			_, l := templateSection(s, a.section)
			*l = list
			doc.SetMember("notificationTemplates")
		}
	}
	if nl := s.Newsletter; nl != nil {
		var t *state.NotificationTemplate
		if x := all[templateKey{0, notifyNewsletter}]; x != nil {
			cp := *x
			t = &cp
		}
		nl.NotificationTemplate = t
		nl.SetMember("notificationTemplate")
	}
}

// TemplateTypeName is the name of a NotificationType value, for
// BuildTemplates' OrderBy(x => x.NotificationType.ToString()).
func TemplateTypeName(typ int) string {
	if typ >= 0 && typ < len(notificationTypeNames) {
		return notificationTypeNames[typ]
	}
	return ""
}
