package mockombi

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/db"
	"github.com/ombi-mcp/ombi-mcp/mockombi/internal/state"
)

// principal is who a request acts as.
type principal struct {
	name   string
	id     string
	roles  []string
	apiKey bool   // authenticated by ApiKey
	alias  string // ApiAlias header, honoured with ApiKey only
}

// inRole reports role membership; the API principal name counts as admin, as
// in Ombi's BaseEngine.IsInRole.
func (p *principal) inRole(role string) bool {
	if p == nil {
		return false
	}
	if role == db.OmbiRoleAdmin && strings.EqualFold(p.name, "API") && p.apiKey {
		return true
	}
	return slices.Contains(p.roles, role)
}

// isPrivileged is Admin or PowerUser.
func (p *principal) isPrivileged() bool {
	return p.inRole(db.OmbiRoleAdmin) || p.inRole(db.OmbiRolePowerUser)
}

// principalKey is the context key of the request principal.
type principalKey struct{}

// withPrincipal stores p in ctx.
func withPrincipal(ctx context.Context, p *principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// principalOf returns the request principal, nil when anonymous.
func principalOf(r *http.Request) *principal {
	p, _ := r.Context().Value(principalKey{}).(*principal)
	return p
}

// authKeys holds the per-run JWT signing secret.
type authKeys struct {
	mu     sync.RWMutex
	secret []byte
}

// newAuthKeys makes a fresh secret.
func newAuthKeys() *authKeys {
	a := &authKeys{}
	a.rotate()
	return a
}

// rotate replaces the secret, invalidating every issued token.
func (a *authKeys) rotate() {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	a.mu.Lock()
	a.secret = b
	a.mu.Unlock()
}

// sign returns the HS256 signature of data.
func (a *authKeys) sign(data string) []byte {
	a.mu.RLock()
	defer a.mu.RUnlock()
	m := hmac.New(sha256.New, a.secret)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// issueToken builds a signed JWT for acc that expires at exp.
func (s *Server) issueToken(acc *db.Account, exp time.Time) string {
	now := s.now()
	jti := make([]byte, 16)
	_, _ = rand.Read(jti)
	claims := map[string]any{
		"sub":         acc.UserName,
		"nameid":      acc.ID,
		"unique_name": acc.UserName,
		"jti":         hex.EncodeToString(jti),
		"Id":          acc.ID,
		"nbf":         now.Unix(),
		"iat":         now.Unix(),
		"exp":         exp.Unix(),
		"iss":         "Ombi",
		"aud":         "Ombi",
	}
	if len(acc.Roles) == 1 {
		claims["role"] = acc.Roles[0]
	} else {
		claims["role"] = acc.Roles
	}
	if acc.Email != "" {
		claims["Email"] = acc.Email
	}
	head := b64(`{"alg":"HS256","typ":"JWT"}`)
	body, _ := json.Marshal(claims)
	unsigned := head + "." + base64.RawURLEncoding.EncodeToString(body)
	return unsigned + "." + base64.RawURLEncoding.EncodeToString(s.auth.sign(unsigned))
}

// b64 is unpadded base64url of a string.
func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// jwtClaims is the part of a token the mock checks.
type jwtClaims struct {
	Sub  string          `json:"sub"`
	ID   string          `json:"Id"`
	Exp  int64           `json:"exp"`
	Iss  string          `json:"iss"`
	Aud  string          `json:"aud"`
	Role json.RawMessage `json:"role"`
}

// verifyToken checks signature, issuer, audience and expiry (no clock skew).
func (s *Server) verifyToken(tok string) (*principal, bool) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return nil, false
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, s.auth.sign(parts[0]+"."+parts[1])) {
		return nil, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, false
	}
	var c jwtClaims
	if json.Unmarshal(raw, &c) != nil || c.Iss != "Ombi" || c.Aud != "Ombi" {
		return nil, false
	}
	if !s.now().Before(time.Unix(c.Exp, 0)) {
		return nil, false
	}
	p := &principal{name: c.Sub, id: c.ID}
	var one string
	if json.Unmarshal(c.Role, &one) == nil {
		p.roles = []string{one}
	} else {
		_ = json.Unmarshal(c.Role, &p.roles)
	}
	return p, true
}

// The Ombi auth header names in canonical form (http.CanonicalHeaderKey of
// ApiKey, ApiAlias, UserName and UserAccessToken), so a request's lookups
// need not canonicalize them again.
const (
	headerAPIKey          = "Apikey"
	headerAPIAlias        = "Apialias"
	headerUserName        = "Username"
	headerUserAccessToken = "Useraccesstoken"
)

// authenticate runs Ombi's ApiKey middleware and the JWT bearer handler. It
// returns the principal (nil when anonymous) and whether the answer was
// already written.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*principal, bool) {
	key, hasKey := apiKeyOf(r)
	if hasKey {
		if !strings.EqualFold(key, s.opts.APIKey) {
			writePlain(w, http.StatusUnauthorized, "Invalid API Key")
			return nil, true
		}
		alias := r.Header.Get(headerAPIAlias)
		if vals, ok := r.Header[headerUserName]; ok {
			name := ""
			if len(vals) > 0 {
				name = vals[0]
			}
			var p *principal
			s.store.Read(func(st *store) {
				if acc := st.Users.ByName(name); acc != nil {
					p = &principal{name: acc.UserName, id: acc.ID, roles: slices.Clone(acc.Roles), apiKey: true, alias: alias}
				}
			})
			if p == nil {
				writePlain(w, http.StatusUnauthorized, "Invalid User")
				return nil, true
			}
			return p, false
		}
		var id string
		s.store.Read(func(st *store) {
			if acc := st.Users.ByName(db.SystemUserName); acc != nil {
				id = acc.ID
			}
		})
		return &principal{name: "API", id: id, roles: []string{db.OmbiRoleAdmin, db.OmbiRoleAPIUser}, apiKey: true, alias: alias}, false
	}
	if vals, ok := r.Header[headerUserAccessToken]; ok {
		tok := ""
		if len(vals) > 0 {
			tok = vals[0]
		}
		if tok == "" {
			writePlain(w, http.StatusOK, "Invalid User Access Token")
			return nil, true
		}
		var p *principal
		s.store.Read(func(st *store) {
			for _, acc := range st.Users.Accounts {
				if acc.UserAccessToken != "" && acc.UserAccessToken == tok {
					p = &principal{name: acc.UserName, id: acc.ID, roles: slices.Clone(acc.Roles)}
				}
			}
		})
		if p == nil {
			writePlain(w, http.StatusUnauthorized, "Invalid User Access Token")
			return nil, true
		}
		return p, false
	}
	if tok, ok := bearerOf(r); ok {
		if p, ok := s.verifyToken(tok); ok {
			return p, false
		}
	}
	return nil, false
}

// apiKeyOf finds the ApiKey header (any case) or the apikey query key.
func apiKeyOf(r *http.Request) (string, bool) {
	if vals, ok := r.Header[headerAPIKey]; ok && len(vals) > 0 {
		return vals[0], true
	}
	for k, vals := range r.URL.Query() {
		if strings.EqualFold(k, "apikey") && len(vals) > 0 {
			return vals[0], true
		}
	}
	return "", false
}

// bearerOf extracts a bearer token from Authorization.
func bearerOf(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return "", false
	}
	return strings.TrimSpace(h[7:]), true
}

// authorize enforces a route's level: 401 with a Bearer challenge when there
// is no principal, 403 with an empty body when a role is missing.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request, level authLevel, p *principal) bool {
	if level == anon {
		return true
	}
	if p == nil {
		challenge := "Bearer"
		if _, sent := bearerOf(r); sent {
			challenge = `Bearer error="invalid_token"`
		}
		w.Header().Set("WWW-Authenticate", challenge)
		w.WriteHeader(http.StatusUnauthorized)
		return false
	}
	ok := true
	switch level {
	case manageOwn:
		ok = p.isPrivileged() || p.inRole(db.OmbiRoleManageOwnRequests)
	case powerUser:
		ok = p.isPrivileged()
	case admin:
		ok = p.inRole(db.OmbiRoleAdmin)
	}
	if !ok {
		w.WriteHeader(http.StatusForbidden)
	}
	return ok
}

// tokenRequest is Ombi's UserAuthModel.
type tokenRequest struct {
	Username            string `json:"username"`
	Password            string `json:"password"`
	RememberMe          bool   `json:"rememberMe"`
	UsePlexAdminAccount bool   `json:"usePlexAdminAccount"`
	UsePlexOAuth        bool   `json:"usePlexOAuth"`
}

// tokenCreate is POST /api/v1/Token.
func (s *Server) tokenCreate(w http.ResponseWriter, r *http.Request) {
	var in tokenRequest
	if !decodeBody(w, r, &in) {
		return
	}
	if in.UsePlexOAuth {
		writeJSON(w, http.StatusOK, map[string]any{"error": "Application URL has not been set"})
		return
	}
	var acc db.Account
	found := false
	s.store.Write(func(st *store) {
		a := st.Users.ByLogin(in.Username)
		if a == nil || a.Password == "" || a.Password != in.Password || slices.Contains(a.Roles, db.OmbiRoleDisabled) {
			return
		}
		now := s.now().UTC()
		a.LastLoggedIn = &now
		acc, found = *a, true
	})
	if !found {
		writeProblem(w, http.StatusUnauthorized)
		return
	}
	ttl := s.opts.TokenTTL
	if in.RememberMe && ttl == 7*24*time.Hour {
		ttl = 365 * 24 * time.Hour
	}
	exp := s.now().Add(ttl).UTC().Truncate(time.Second)
	writeJSON(w, http.StatusOK, &state.Token{AccessToken: s.issueToken(&acc, exp), Expiration: exp.Format(time.RFC3339)})
}

// tokenRequirePassword is POST /api/v1/Token/requirePassword.
func (s *Server) tokenRequirePassword(w http.ResponseWriter, r *http.Request) {
	var in tokenRequest
	if !decodeBody(w, r, &in) {
		return
	}
	writeJSON(w, http.StatusOK, true)
}

// tokenRefresh is POST /api/v1/Token/refresh, not implemented upstream.
func (s *Server) tokenRefresh(w http.ResponseWriter, r *http.Request) {
	writeOmbiError(w, http.StatusInternalServerError, "The method or operation is not implemented.")
}

// tokenPlex is POST /api/v1/Token/plextoken; the mock knows no Plex account.
func (s *Server) tokenPlex(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PlexToken string `json:"plexToken"`
	}
	if !decodeBody(w, r, &in) {
		return
	}
	if in.PlexToken == "" {
		writeJSON(w, http.StatusBadRequest, "Token was not provided")
		return
	}
	writeProblem(w, http.StatusUnauthorized)
}

// tokenHeaderAuth is POST /api/v1/Token/header_auth; header auth is disabled.
func (s *Server) tokenHeaderAuth(w http.ResponseWriter, r *http.Request) {
	writeProblem(w, http.StatusUnauthorized)
}

// tokenPlexPin is GET /api/v1/Token/{pinId}.
func (s *Server) tokenPlexPin(w http.ResponseWriter, r *http.Request) {
	if _, ok := intParam(w, r, "pinId"); !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"errorMessage": "Could not authenticate with Plex"})
}
