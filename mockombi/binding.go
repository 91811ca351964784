package mockombi

import "strings"

// model is an Ombi class that upstream JSON (TMDB, Sonarr, Radarr, Lidarr,
// Plex) is deserialised into and serialised back out of. Newtonsoft binds
// each property from the key that matches its name ignoring case, leaves an
// unmatched property at its zero value, and drops keys with no property; the
// serialised form then has exactly the model's properties, nulls kept.
type model []modelField

// modelField is one property: its wire name, the zero value an unmatched
// property serialises as, and the model of a nested object (or of each
// element of a list).
type modelField struct {
	name string
	zero any
	sub  model
}

// bind passes an upstream JSON value through m as Newtonsoft would: an
// object becomes m's properties, a list becomes a list of them; anything
// else (null included) is returned as it is.
func (m model) bind(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(m))
		for _, f := range m {
			val, ok := lookupFold(t, f.name)
			switch {
			case !ok || val == nil:
				out[f.name] = f.zero
			case f.sub != nil:
				out[f.name] = f.sub.bind(val)
			default:
				out[f.name] = deepCopyJSON(val)
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			out = append(out, m.bind(e))
		}
		return out
	}
	return v
}

// lookupFold finds a key of obj ignoring case, an exact match first.
func lookupFold(obj map[string]any, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// fields builds a model of scalar properties whose zero is null (strings,
// objects, nullable values); use modelField directly for typed zeros.
func fields(names ...string) model {
	m := make(model, 0, len(names))
	for _, n := range names {
		m = append(m, modelField{name: n})
	}
	return m
}

// Ombi's external-API models (src/Ombi.Api.External/ExternalApis/...), by
// the route that answers them.
var (
	// idNameModel is {id, name}: Sonarr/Models/V3/LanguageProfiles.cs Cutoff and
	// Language, Lidarr/Models/LidarrProfile.cs Quality.
	idNameModel = model{{name: "id", zero: 0}, {name: "name"}}

	// sonarrProfile is Sonarr/Models/SonarrProfile.cs (GET|POST Sonarr/Profiles).
	sonarrProfile = model{{name: "name"}, {name: "id", zero: 0}}
	// arrRootFolder is Sonarr/Models/SonarrRootFolder.cs and
	// Radarr/Models/V2/RadarrRootFolder.cs: freespace, lower-case s.
	arrRootFolder = model{{name: "id", zero: 0}, {name: "path"}, {name: "freespace", zero: 0}}
	// sonarrLanguageProfile is Sonarr/Models/V3/LanguageProfiles.cs: each
	// languages[] entry has a property named languages, which Sonarr's
	// "language" key does not bind, so it is null on the wire.
	sonarrLanguageProfile = model{{name: "name"}, {name: "upgradeAllowed", zero: false}, {name: "cutoff", sub: idNameModel},
		{name: "languages", sub: model{{name: "languages", sub: idNameModel}, {name: "allowed", zero: false}}}, {name: "id", zero: 0}}
	// arrTag is Sonarr/Models/Tag.cs and Radarr/Models/V2/Tag.cs.
	arrTag = model{{name: "id", zero: 0}, {name: "label"}}
	// radarrProfile is Radarr/Models/V3/RadarrV3QualityProfile.cs.
	radarrProfile = model{{name: "name"}, {name: "upgradeAllowed", zero: false}, {name: "cutoff", zero: 0}, {name: "preferredTags"},
		{name: "items", sub: model{
			{name: "quality", sub: model{{name: "id", zero: 0}, {name: "name"}, {name: "source"}, {name: "resolution", zero: 0}, {name: "modifier"}}},
			{name: "items"}, {name: "allowed", zero: false}}},
		{name: "id", zero: 0}}
	// lidarrProfile is Lidarr/Models/LidarrProfile.cs.
	lidarrProfile = model{{name: "name"}, {name: "items", sub: model{{name: "quality", sub: idNameModel}, {name: "allowed", zero: false}}}, {name: "id", zero: 0}}
	// lidarrRootFolder is Lidarr/Models/LidarrRootFolder.cs: freeSpace, upper-case S.
	lidarrRootFolder = model{{name: "path"}, {name: "freeSpace", zero: 0}, {name: "unmappedFolders"}, {name: "id", zero: 0}}
	// lidarrMetadataProfile is Lidarr/Models/MetadataProfile.cs.
	lidarrMetadataProfile = model{{name: "name"}, {name: "id", zero: 0}}

	// plexSectionLite is MediaServers/Plex/Models/PlexLibrariesForMachineId.cs
	// SectionLite (GET Plex/Libraries/{machineId}).
	plexSectionLite = fields("id", "key", "type", "title")

	// tmdbCast is TheMovieDb/Models/ActorCredits.cs Cast: TV credits carry
	// name/first_air_date, which do not bind, so title, original_title and
	// release_date are null for shows.
	tmdbCast = model{{name: "character"}, {name: "credit_id"}, {name: "poster_path"}, {name: "id", zero: 0}, {name: "video", zero: false},
		{name: "vote_count", zero: 0}, {name: "adult", zero: false}, {name: "backdrop_path"}, {name: "genre_ids"},
		{name: "original_language"}, {name: "original_title"}, {name: "popularity", zero: 0}, {name: "title"},
		{name: "vote_average", zero: 0}, {name: "overview"}, {name: "release_date"}}
	// tmdbCrew is TheMovieDb/Models/ActorCredits.cs Crew.
	tmdbCrew = model{{name: "id", zero: 0}, {name: "department"}, {name: "original_language"}, {name: "original_title"}, {name: "job"},
		{name: "overview"}, {name: "vote_count", zero: 0}, {name: "video", zero: false}, {name: "release_date"},
		{name: "vote_average", zero: 0}, {name: "title"}, {name: "popularity", zero: 0}, {name: "genre_ids"},
		{name: "backdrop_path"}, {name: "adult", zero: false}, {name: "poster_path"}, {name: "credit_id"}}
)
