package db

import (
	"maps"
	"slices"
	"strings"
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

// templateList is where a section keeps its templates: the list itself,
// or nil when the section shows none.
func templateList(section string, doc map[string]any) []any {
	switch section {
	case "notifications/webhook":
		return nil
	case "notifications/twilio":
		wa, _ := doc["whatsAppSettings"].(map[string]any)
		l, _ := wa["notificationTemplates"].([]any)
		return l
	}
	l, _ := doc["notificationTemplates"].([]any)
	return l
}

// seedNotificationTemplates fills every notification section with its
// agent's templates: those the data gives keep their text and id, the
// others are seeded with Ombi's text and the id Ombi's seeding order gives
// them (or, when the data already uses that id, one past the highest).
func seedNotificationTemplates(sections map[string]any) {
	given := map[templateKey]map[string]any{}
	used := map[int]bool{}
	maxID := 0
	note := func(t map[string]any) {
		agent, _ := JsonNumber(t["agent"])
		typ, _ := JsonNumber(t["notificationType"])
		given[templateKey{agent, typ}] = t
		if id, ok := JsonNumber(t["id"]); ok {
			used[id] = true
			maxID = max(maxID, id)
		}
	}
	for _, a := range notificationAgentSections {
		doc, _ := sections[a.section].(map[string]any)
		list := templateList(a.section, doc)
		if a.section == "notifications/twilio" {
			list = append(list, anyList(doc["notificationTemplates"])...) // older mocks kept them at the top level
		}
		for _, t := range list {
			if m, ok := t.(map[string]any); ok {
				note(m)
			}
		}
	}
	if nl, ok := sections["notifications/newsletter"].(map[string]any); ok {
		if t, ok := nl["notificationTemplate"].(map[string]any); ok {
			note(t)
		}
	}
	all := map[templateKey]map[string]any{}
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
			all[k] = map[string]any{"id": id, "notificationType": typ, "agent": a.agent, "subject": text[0], "message": text[1], "enabled": true}
		}
	}
	for _, a := range notificationAgentSections {
		doc, ok := sections[a.section].(map[string]any)
		if !ok {
			continue
		}
		list := []any{}
		for typ := range notificationTypeNames {
			t, ok := all[templateKey{a.agent, typ}]
			if !ok || typ == notifyNewsletter {
				continue
			}
			list = append(list, t)
		}
		slices.SortStableFunc(list, func(x, y any) int {
			return strings.Compare(TemplateTypeName(x), TemplateTypeName(y))
		})
		switch a.section {
		case "notifications/webhook":
			delete(doc, "notificationTemplates")
		case "notifications/twilio":
			delete(doc, "notificationTemplates")
			wa, _ := doc["whatsAppSettings"].(map[string]any)
			if wa == nil {
				wa = map[string]any{"enabled": false, "from": nil, "accountSid": nil, "authToken": nil}
				doc["whatsAppSettings"] = wa
			}
			wa["notificationTemplates"] = list
		default:
			doc["notificationTemplates"] = list
		}
	}
	if nl, ok := sections["notifications/newsletter"].(map[string]any); ok {
		nl["notificationTemplate"] = maps.Clone(all[templateKey{0, notifyNewsletter}])
	}
}

// TemplateTypeName is the NotificationType name of a template, for
// BuildTemplates' OrderBy(x => x.NotificationType.ToString()).
func TemplateTypeName(t any) string {
	m, _ := t.(map[string]any)
	if i, _ := JsonNumber(m["notificationType"]); i >= 0 && i < len(notificationTypeNames) {
		return notificationTypeNames[i]
	}
	return ""
}

// anyList is v as a JSON array, nil when it is not one.
func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}
