package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_settings and write_settings_patch: Ombi's Settings
// controller (32 writable sections, DECISIONS D4, plus 9 read-only views),
// the CustomPage read and the v2 Features switches.

// syncSections trigger upstream sync jobs when saved.
var syncSections = []string{"plex", "emby", "jellyfin", "sonarr", "radarr", "lidarr"}

// Output types of the settings family.
type (
	settingsResult struct {
		Kind          string          `json:"kind"` // "settings"
		Section       string          `json:"section"`
		Revision      string          `json:"revision,omitempty"`
		Values        []settingChange `json:"values"`
		OmittedFields []string        `json:"omitted_fields"`
	}
	settingChange struct {
		Name  string `json:"name"`
		Value any    `json:"value"`
	}
)

// ---- projection ----

// revisionOf is the SHA-256 of the full wire document (compacted, so
// whitespace differences never count as a change).
func revisionOf(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(bytes.TrimSpace(raw))
	}
	sum := sha256.Sum256(b.Bytes())
	return hex.EncodeToString(sum[:])
}

// escapePointer escapes one JSON Pointer token (RFC 6901).
func escapePointer(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

var serverIdentityLeaf = regexp.MustCompile(`^/servers/[0-9]+/(id|serverId|machineIdentifier)$`)

// identityKeys are record identities: omitted on read except for saved
// server identities, never writable.
var identityKeys = []string{"id", "serverid", "machineidentifier"}

// secretFragments mark keys whose values are credentials, markup or
// install identities: never shown, never writable.
var secretFragments = []string{
	"password", "passwd", "token", "secret", "apikey", "api_key", "cookie", "connectionstring",
	"authorization", "credential", "privatekey", "botapi", "html", "css", "scriptlocation",
	"installid", "clientid", "storagepath", "basepath",
}

// destinationFragments mark keys whose string values are destinations or
// personal addresses (a boolean or number under such a key is a switch):
// "from" is the Twilio WhatsApp sender number.
var destinationFragments = []string{
	"url", "uri", "host", "email", "username", "login", "sender", "recipient", "phone",
	"webhook", "chatid", "channel", "topic", "from",
}

// secretKey reports keys that never leave the server and never accept a
// change.
func secretKey(key string) bool {
	k := strings.ToLower(key)
	if strings.HasSuffix(k, "key") || strings.HasSuffix(k, "sid") || k == "ip" {
		return true
	}
	for _, f := range secretFragments {
		if strings.Contains(k, f) {
			return true
		}
	}
	return false
}

// destinationLeaf reports a string value under a destination-like key.
func destinationLeaf(key string, v any) bool {
	if _, ok := v.(string); !ok {
		return false
	}
	k := strings.ToLower(key)
	for _, f := range destinationFragments {
		if strings.Contains(k, f) {
			return true
		}
	}
	return false
}

// unsafeValue reports string values that look like destinations or
// credentials whatever their key: URLs, addresses, long opaque tokens.
func unsafeValue(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	if strings.Contains(s, "://") || strings.Contains(s, "@") || strings.Contains(s, "\\\\") {
		return true
	}
	run := 0
	for _, r := range s {
		if r == ' ' || r == ',' || r == ';' {
			run = 0
			continue
		}
		run++
		if run >= 32 {
			return true
		}
	}
	return false
}

// leafShown decides whether one flattened leaf may be returned.
func leafShown(pointer, key string, v any) bool {
	if serverIdentityLeaf.MatchString(pointer) {
		return true
	}
	if slices.Contains(identityKeys, strings.ToLower(key)) {
		return false
	}
	return !secretKey(key) && !destinationLeaf(key, v) && !unsafeValue(v)
}

// flattenSettings turns a section document into one entry per scalar
// leaf, named by its escaped JSON Pointer. A leaf is shown only when every
// key on its path is in the section's allowlist (array indices aside) and
// the deny rules pass; every other leaf's pointer goes to omitted, never
// its value.
func flattenSettings(section string, doc any) (values []settingChange, omitted []string) {
	allowed := settingsFields[section]
	var walk func(v any, pointer, key string, hidden bool)
	walk = func(v any, pointer, key string, hidden bool) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				unlisted := !slices.Contains(allowed, k)
				walk(t[k], pointer+"/"+escapePointer(k), k, hidden || unlisted || (secretKey(k) && !isContainer(t[k])))
			}
		case []any:
			for i, e := range t {
				walk(e, pointer+"/"+strconv.Itoa(i), key, hidden)
			}
		default:
			if hidden || !leafShown(pointer, key, v) {
				omitted = append(omitted, pointer)
				return
			}
			values = append(values, settingChange{Name: pointer, Value: v})
		}
	}
	walk(doc, "", "", false)
	return values, omitted
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func decodeDoc(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// ---- read_settings ----

type settingsInput struct {
	Section string `json:"section"`
}

// readSettings serves read_settings (administration bundle).
// Implements S-RESULTS-0077 to S-RESULTS-0080 (settings projection).
func readSettings(d *deps) tool {
	return tool{name: "read_settings", handle: func(ctx context.Context, c *call) (any, error) {
		var in settingsInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		raw, err := d.client.SettingsSection(ctx, in.Section)
		if err != nil {
			return nil, err
		}
		doc, err := decodeDoc(raw)
		if err != nil {
			return nil, &ombi.SchemaError{Op: "GET " + ombi.SettingsWire[in.Section], Reason: "not valid JSON"}
		}
		res := settingsResult{Kind: "settings", Section: in.Section}
		if isContainer(doc) {
			res.Values, res.OmittedFields = flattenSettings(in.Section, doc)
		} else if doc != nil {
			// A scalar view: only its value decides (the label is ours).
			if !unsafeValue(doc) {
				res.Values = []settingChange{{Name: in.Section, Value: doc}}
			} else {
				res.OmittedFields = []string{in.Section}
			}
		}
		if ombi.WritableSection(in.Section) {
			res.Revision = revisionOf(raw)
		}
		res.Values = nonNilSlice(res.Values)
		res.OmittedFields = nonNilSlice(res.OmittedFields)
		return res, nil
	}}
}

// ---- write_settings_patch ----

type settingsPatchInput struct {
	Action   string          `json:"action"`
	Section  string          `json:"section"`
	Revision string          `json:"revision"`
	Changes  json.RawMessage `json:"changes"`
	Name     string          `json:"name"`
	Enabled  bool            `json:"enabled"`
}

// writeSettingsPatch serves write_settings_patch. patch: private GET,
// revision check (stale: CONFLICT, nothing posted), validation of every
// change against the original, deep merge keeping every other byte (and
// so every secret), POST of the full model. feature: the name must be one
// GET Features lists.
// Implements S-ROUTING-0257 to S-ROUTING-0262 and VERIFY-AUTHZ-SETTINGS-001.
func writeSettingsPatch(d *deps) tool {
	return tool{name: "write_settings_patch", handle: func(ctx context.Context, c *call) (any, error) {
		var in settingsPatchInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		switch in.Action {
		case "patch":
			return d.patchSettings(ctx, c, in)
		case "feature":
			return d.switchFeature(ctx, c, in)
		}
		return nil, &unsupportedError{Message: "write_settings_patch: unknown branch"}
	}}
}

func (d *deps) patchSettings(ctx context.Context, c *call, in settingsPatchInput) (any, error) {
	if !ombi.WritableSection(in.Section) {
		return nil, &ombi.ArgumentError{Field: "/section", Message: "section is not writable"}
	}
	changes, err := decodeDoc(in.Changes)
	if err != nil {
		return nil, &ombi.ArgumentError{Field: "/changes", Message: "changes must be a JSON object"}
	}
	cm, ok := changes.(map[string]any)
	if !ok || len(cm) == 0 {
		return nil, &ombi.ArgumentError{Field: "/changes", Message: "changes must be a non-empty object"}
	}
	raw, err := d.client.SettingsSection(ombi.ReadOnly(ctx), in.Section)
	if err != nil {
		return nil, err
	}
	if revisionOf(raw) != in.Revision {
		return nil, &ombi.APIError{Status: http.StatusConflict, Message: "the section changed since it was read (stale revision); read it again and retry with the new revision. Nothing was saved"}
	}
	orig, err := decodeDoc(raw)
	if err != nil {
		return nil, &ombi.SchemaError{Op: "GET " + ombi.SettingsWire[in.Section], Reason: "not valid JSON"}
	}
	om, ok := orig.(map[string]any)
	if !ok || len(om) == 0 {
		return nil, &unsupportedError{Message: "the saved " + in.Section + " section is incomplete upstream; patching it is not supported"}
	}
	merged, err := mergeSettings(om, cm, settingsFields[in.Section], "/changes", "")
	if err != nil {
		return nil, err
	}
	if reflect.DeepEqual(merged, om) {
		return nil, &ombi.ArgumentError{Field: "/changes", Message: "the patch changes nothing (no-op)"}
	}
	body, err := mergedBody(raw, merged, cm)
	if err != nil {
		return nil, err
	}
	ans, err := d.client.SaveSettings(ctx, in.Section, body)
	if err != nil {
		return nil, err
	}
	saved, msg := saveAnswer(ans)
	if !saved {
		return nil, &ombi.BusinessError{Message: sanitizeMessage(msg, d.client.Secrets()...)}
	}
	if slices.Contains(syncSections, in.Section) {
		c.warn("saving %s makes upstream start its sync jobs", in.Section)
	}
	c.warn("the revision was checked just before saving; a write by someone else in between would be overwritten")
	m := completed()
	m.UpstreamResult = ptr(true)
	m.Message = "saved; read the section again for its new revision"
	return m, nil
}

// saveAnswer reads a settings save answer: a bool, or {result, message}.
func saveAnswer(raw json.RawMessage) (bool, string) {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, ""
	}
	var o struct {
		Result  bool   `json:"result"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &o) == nil {
		return o.Result, o.Message
	}
	return false, ""
}

// mergedBody encodes the merged model for the POST. Every top-level
// property no change touches, known or not, keeps the original's bytes;
// the changed ones are encoded from the merge.
func mergedBody(raw json.RawMessage, merged, changes map[string]any) ([]byte, error) {
	var parts map[string]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, fmt.Errorf("decode saved settings: %w", err)
	}
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(k)
		if err != nil {
			return nil, fmt.Errorf("encode merged settings: %w", err)
		}
		b.Write(name)
		b.WriteByte(':')
		if part, ok := parts[k]; ok {
			if _, changed := changes[k]; !changed {
				b.Write(part)
				continue
			}
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(merged[k]); err != nil {
			return nil, fmt.Errorf("encode merged settings: %w", err)
		}
		b.Truncate(b.Len() - 1) // the encoder's newline
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// mergeSettings applies changes to a copy of orig. Every change key must
// be in the section allowlist and exist in the original, be neither an
// identity nor a secret or destination, keep the original's type, and
// carry no null; arrays are never replaced (notificationTemplates entries
// merge by label key). Properties no change names, listed or not, are
// kept as they are.
func mergeSettings(orig, changes map[string]any, allowed []string, field, pointer string) (map[string]any, error) {
	out := make(map[string]any, len(orig))
	for k, v := range orig {
		out[k] = v
	}
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cv := changes[k]
		f := field + "/" + escapePointer(k)
		p := pointer + "/" + escapePointer(k)
		ov, exists := orig[k]
		switch {
		case !exists || !slices.Contains(allowed, k):
			return nil, &ombi.ArgumentError{Field: f, Message: "unknown key for this section"}
		case cv == nil:
			return nil, &ombi.ArgumentError{Field: f, Message: "null is not a value a patch may set"}
		case slices.Contains(identityKeys, strings.ToLower(k)) || serverIdentityLeaf.MatchString(p):
			return nil, &ombi.ArgumentError{Field: f, Message: "identity fields are not writable"}
		case pointer == "" && strings.EqualFold(k, "wizard"):
			return nil, &ombi.ArgumentError{Field: f, Message: "wizard is managed by upstream and excluded"}
		case secretKey(k) || destinationLeaf(k, ov) || unsafeValue(ov):
			return nil, &ombi.ArgumentError{Field: f, Message: "secret, redacted or destination fields are not writable through a patch"}
		}
		switch o := ov.(type) {
		case map[string]any:
			cmap, ok := cv.(map[string]any)
			if !ok {
				return nil, &ombi.ArgumentError{Field: f, Message: "must be an object (nested changes merge; they never replace)"}
			}
			sub, err := mergeSettings(o, cmap, allowed, f, p)
			if err != nil {
				return nil, err
			}
			out[k] = sub
		case []any:
			if k != "notificationTemplates" {
				return nil, &ombi.ArgumentError{Field: f, Message: "arrays cannot be replaced by a patch"}
			}
			merged, err := mergeTemplates(o, cv, allowed, f)
			if err != nil {
				return nil, err
			}
			out[k] = merged
		default:
			if !sameScalarType(ov, cv) {
				return nil, &ombi.ArgumentError{Field: f, Message: "value type differs from the saved setting"}
			}
			if s, ok := cv.(string); ok && unsafeValue(s) {
				return nil, &ombi.ArgumentError{Field: f, Message: "destination-like values are not accepted"}
			}
			out[k] = cv
		}
	}
	return out, nil
}

func sameScalarType(a, b any) bool {
	switch a.(type) {
	case nil:
		_, isObj := b.(map[string]any)
		_, isArr := b.([]any)
		return !isObj && !isArr
	case bool:
		_, ok := b.(bool)
		return ok
	case json.Number:
		_, ok := b.(json.Number)
		return ok
	case string:
		_, ok := b.(string)
		return ok
	}
	return false
}

// mergeTemplates merges notificationTemplates entries keyed by the
// notification_type (T4) and agent (T3) labels, never by index.
func mergeTemplates(orig []any, change any, allowed []string, field string) ([]any, error) {
	entries, ok := change.([]any)
	if !ok || len(entries) == 0 {
		return nil, &ombi.ArgumentError{Field: field, Message: "must be a non-empty array of template changes keyed by notification_type and agent"}
	}
	out := make([]any, len(orig))
	copy(out, orig)
	seen := map[[2]int]bool{}
	for i, e := range entries {
		f := field + "/" + strconv.Itoa(i)
		em, ok := e.(map[string]any)
		if !ok {
			return nil, &ombi.ArgumentError{Field: f, Message: "must be an object"}
		}
		nt, _ := em["notification_type"].(string)
		ag, _ := em["agent"].(string)
		ntc, ok1 := labelCode(enumNotificationType, nt)
		agc, ok2 := labelCode(enumNotificationAgent, ag)
		if !ok1 || !ok2 {
			return nil, &ombi.ArgumentError{Field: f, Message: "needs notification_type and agent labels that exist"}
		}
		key := [2]int{ntc, agc}
		if seen[key] {
			return nil, &ombi.ArgumentError{Field: f, Message: "the same template is changed twice"}
		}
		seen[key] = true
		rest := map[string]any{}
		for k, v := range em {
			if k != "notification_type" && k != "agent" {
				rest[k] = v
			}
		}
		if len(rest) == 0 {
			return nil, &ombi.ArgumentError{Field: f, Message: "changes nothing"}
		}
		idx := -1
		for j, o := range out {
			om, ok := o.(map[string]any)
			if ok && numberIs(om["notificationType"], ntc) && numberIs(om["agent"], agc) {
				idx = j
				break
			}
		}
		if idx < 0 {
			return nil, &ombi.ArgumentError{Field: f, Message: "no saved template has this notification_type and agent"}
		}
		for _, k := range []string{"notificationType", "agent"} {
			if _, ok := rest[k]; ok {
				return nil, &ombi.ArgumentError{Field: f + "/" + k, Message: "template keys are given as labels, not codes"}
			}
		}
		merged, err := mergeSettings(out[idx].(map[string]any), rest, allowed, f, "/notificationTemplates/"+strconv.Itoa(idx))
		if err != nil {
			return nil, err
		}
		out[idx] = merged
	}
	return out, nil
}

// labelCode maps a label to its upstream int (T1-T4).
func labelCode(enum, label string) (int, bool) {
	n, err := enumCode(enum, "", label)
	return n, err == nil && label != ""
}

func numberIs(v any, n int) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := num.Int64()
	return err == nil && int(i) == n
}

// switchFeature enables or disables a feature that GET Features lists.
func (d *deps) switchFeature(ctx context.Context, c *call, in settingsPatchInput) (any, error) {
	if err := nonBlank("/name", in.Name); err != nil {
		return nil, err
	}
	fs, err := d.client.Features(ombi.ReadOnly(ctx))
	if err != nil {
		return nil, err
	}
	known := false
	for _, f := range fs {
		if f.Name == in.Name {
			known = true
		}
	}
	if !known {
		return nil, &ombi.ArgumentError{Field: "/name", Message: "no feature of this name exists upstream (names are case-sensitive)"}
	}
	after, err := d.client.SetFeature(ctx, in.Name, in.Enabled)
	if err != nil {
		return nil, err
	}
	m := completed()
	for _, f := range after {
		if f.Name == in.Name && f.Enabled != nil && *f.Enabled != in.Enabled {
			c.warn("upstream answered with %s still %t", in.Name, *f.Enabled)
			m.Outcome = "unknown"
		}
	}
	return m, nil
}
