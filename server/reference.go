package server

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ombi-mcp/ombi-mcp/server/internal/ombi"
)

// This file serves read_reference: named id/value records from TMDB via
// Ombi (genres, languages, keywords, the watch-provider catalogue), the
// streaming countries and the issue categories.

// reference is one named record (04-results $defs/reference). Value holds
// the native-typed identifier matching ID, or the name when no id matched.
type reference struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name"`
	Value    any    `json:"value,omitempty"`
	Category string `json:"category,omitempty"`
}

type referencePage struct {
	Kind  string      `json:"kind"` // "reference_page"
	Items []reference `json:"items"`
	Page  paging      `json:"page"`
}

func newReferencePage(items []reference, pg paging) referencePage {
	if items == nil {
		items = []reference{}
	}
	return referencePage{Kind: "reference_page", Items: items, Page: pg}
}

func appendRef(refs []reference, name, value, category string) []reference {
	if strings.TrimSpace(value) == "" {
		return refs
	}
	return append(refs, reference{Name: name, Value: value, Category: category})
}

func appendIntRef(refs []reference, name string, value *int, category string) []reference {
	if value == nil {
		return refs
	}
	return append(refs, reference{Name: name, Value: *value, Category: category})
}

func appendFloatRef(refs []reference, name string, value *float64, category string) []reference {
	if value == nil {
		return refs
	}
	return append(refs, reference{Name: name, Value: *value, Category: category})
}

// ---- read_reference ----

type referenceInput struct {
	Action    string   `json:"action"`
	Media     string   `json:"media"`
	Query     string   `json:"query"`
	KeywordID int      `json:"keyword_id"`
	Page      *pageArg `json:"page"`
}

// readReference serves read_reference. Every branch but keyword is an
// unpaged upstream list sliced locally; genres, languages, watch providers,
// countries and categories are complete collections, keyword search is
// TMDB's first result page (total unknown).
// Implements S-ROUTING-0136, S-ROUTING-0137, S-ROUTING-0138 and S-RESULTS-0113.
func readReference(d *deps) tool {
	return tool{name: "read_reference", handle: func(ctx context.Context, c *call) (any, error) {
		var in referenceInput
		if err := c.decode(&in); err != nil {
			return nil, err
		}
		cl := d.client
		var (
			ws       []ombi.Ref
			err      error
			category string
			complete = true
		)
		switch in.Action {
		case "genres":
			category = "genre"
			ws, err = cl.Genres(ctx, in.Media)
		case "languages":
			category = "language"
			ws, err = cl.Languages(ctx)
		case "keywords":
			if err := nonBlank("/query", in.Query); err != nil {
				return nil, err
			}
			category, complete = "keyword", false
			ws, err = cl.Keywords(ctx, in.Query)
		case "keyword":
			w, err := cl.Keyword(ctx, in.KeywordID)
			if err != nil {
				return nil, err
			}
			r, ok := refOf(c, w, "keyword")
			if !ok {
				// a 200 object without id or name is not a keyword (for
				// example a RequestEngineResult failure): only 204 or a
				// null body mean "not found"
				return nil, &ombi.SchemaError{Op: "GET /api/v1/TheMovieDb/Keywords/{keywordId}", Reason: "the answer has neither an id nor a name"}
			}
			return newReferencePage([]reference{r}, singlePage(1, unitReferences)), nil
		case "watch_providers":
			if in.Query != "" {
				if err := nonBlank("/query", in.Query); err != nil {
					return nil, err
				}
			}
			category = "watch_provider"
			ws, err = cl.WatchProviders(ctx, in.Media, in.Query)
		case "countries":
			codes, err := cl.StreamingCountries(ctx)
			if err != nil {
				return nil, err
			}
			var refs []reference
			for _, code := range codes {
				if code = strings.TrimSpace(code); code != "" {
					refs = append(refs, reference{ID: code, Name: code, Value: code, Category: "country"})
				}
			}
			window, pg := localPage(refs, in.Page, true, unitReferences)
			return newReferencePage(window, pg), nil
		case "issue_categories":
			category = "issue_category"
			ws, err = cl.IssueCategories(ctx)
		default:
			return nil, &unsupportedError{Message: "read_reference: unknown branch"}
		}
		if err != nil {
			return nil, err
		}
		refs := make([]reference, 0, len(ws))
		for _, w := range ws {
			if r, ok := refOf(c, w, category); ok {
				refs = append(refs, r)
			}
		}
		window, pg := localPage(refs, in.Page, complete, unitReferences)
		return newReferencePage(window, pg), nil
	}}
}

// refOf resolves one record deterministically: the id is the first of id,
// provider_id, iso_639_1; the name the first clean (not mojibake) of name
// candidates in a fixed order, else the first corrupted one with a warning;
// value is the native-typed id (number for numeric ids), else the name.
// Implements S-RESULTS-0069, S-RESULTS-0070, S-RESULTS-0071 (reference_page values).
func refOf(c *call, w ombi.Ref, category string) (reference, bool) {
	r := reference{Category: category}
	// numeric reference ids (TMDB, watch providers, issue categories) are
	// ids only when positive integers; anything else is dropped, not emitted
	numeric := func(f ombi.FlexID) {
		if n := f.Positive(); n > 0 {
			r.ID = strconv.Itoa(n)
			return
		}
		c.warn("an upstream %s id that is not a positive integer was dropped", category)
	}
	switch {
	case w.ID != "":
		numeric(w.ID)
	case w.ProviderID != "":
		numeric(w.ProviderID)
	case w.ISO6391 != "":
		r.ID = w.ISO6391
	}
	candidates := []string{w.EnglishName, w.Name, w.ProviderName, w.Value}
	var corrupt string
	for _, s := range candidates {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if mojibake(s) {
			if corrupt == "" {
				corrupt = s
			}
			continue
		}
		r.Name = s
		break
	}
	if r.Name == "" && corrupt != "" {
		r.Name = corrupt
		c.warn("an upstream %s label (id %q) is corrupted (mojibake) and no clean alternative exists", category, sanitizeMessage(r.ID))
	}
	if r.Name == "" {
		if r.ID == "" {
			return reference{}, false
		}
		r.Name = r.ID
	}
	switch {
	case r.ID == "":
		r.Value = r.Name
	case w.ID != "" || w.ProviderID != "":
		if n, err := strconv.ParseInt(r.ID, 10, 64); err == nil {
			r.Value = n
		} else {
			r.Value = r.ID
		}
	default:
		r.Value = r.ID
	}
	return r, true
}

// mojibake reports labels that are all question marks or carry U+FFFD.
func mojibake(s string) bool {
	if strings.ContainsRune(s, utf8.RuneError) {
		return true
	}
	return strings.Trim(s, "? ") == ""
}
