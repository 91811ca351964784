# ombi-mcp: conformance kit, reference server and mock Ombi.
#
#   make conformance   run the conformance suite against the reference server on the embedded mock
#   make test          run every test (unit, spec, mock, server, suite, mutants, independent schema check)
#   make soak          property areas over SEEDS seeds, every mutant over MUTANT_SEEDS seeds

GO          ?= go
BIN         ?= bin
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
ADDR        ?= 127.0.0.1:5000
CONFORMANCE_FLAGS ?=
SEEDS        ?= 200
MUTANT_SEEDS ?= 20
JOBS         ?= 2

.PHONY: all build test unit race spec-independent official-deps official-conformance lint conformance soak bench mock browsers clean

all: build

# -buildvcs=auto stamps the commit into --version (and serverInfo) where a
# checkout is around, whatever GOFLAGS says.
build:
	$(GO) build -buildvcs=auto -o $(BIN)/ ./cmd/...

test: browsers lint unit race spec-independent

# Every Go test; the official MCP conformance scenarios run among them
# (TestOfficialConformance), with the npm package official-deps installs.
unit: official-deps
	OMBI_MCP_OFFICIAL_CONFORMANCE=$(abspath conformance/official) $(GO) test -count=1 ./...

# The concurrent packages again under the race detector: the mock serves
# many clients at once, the server's client shares one token across calls.
race:
	$(GO) test -race -count=1 ./mockombi/... ./cmd/mockombi/ ./conformance/harness/
	$(GO) test -race -count=1 -run 'Client|Concurrent|Token|Login' ./server/

spec-independent:
	sh spec/independent/check.sh

# The official MCP conformance suite (npm @modelcontextprotocol/conformance,
# pinned in conformance/official) runs its server scenarios against
# ombi-mcp --http on a loopback mockombi (TestOfficialConformance).
official-deps:
	cd conformance/official && npm ci --silent --no-audit --no-fund

official-conformance: official-deps
	OMBI_MCP_OFFICIAL_CONFORMANCE=$(abspath conformance/official) $(GO) test -count=1 -v -run '^TestOfficialConformance$$' ./cmd/ombi-mcp/

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff
	$(GO) run $(STATICCHECK) ./...

conformance: build
	$(BIN)/ombi-conformance --server "$(abspath $(BIN))/ombi-mcp" --bundles core,moderation,administration $(CONFORMANCE_FLAGS)

# Not part of make test: the property areas of the reference server over
# SEEDS seeds and every mutant over MUTANT_SEEDS seeds; ends with a line
# "N passed, N failed".
soak: build
	$(BIN)/ombi-conformance soak --server "$(abspath $(BIN))/ombi-mcp" --seeds $(SEEDS) --mutant-seeds $(MUTANT_SEEDS) --jobs $(JOBS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# mockombi on ADDR (127.0.0.1:5000, the port the docs use); the dashboard
# is at http://$(ADDR)/_mock/.
mock: build
	$(BIN)/mockombi --addr $(ADDR)

# Headless Chromium for the dashboard test (mockombi TestDashboard_inChromium);
# installed with apt-get when missing.
browsers:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y chromium)

clean:
	rm -rf $(BIN)
