# ombi-mcp: conformance kit, reference server and mock Ombi.
#
#   make conformance   run the conformance suite against the reference server on the embedded mock
#   make test          run every test (unit, spec, mock, server, suite, mutants, independent schema check)
#   make soak          property areas over SEEDS seeds, every mutant over MUTANT_SEEDS seeds
#   make mutants       every source-level mutant of the reference server, judged once
#   make mutation      the kill score on SAMPLE operator mutants of server/ drawn with SEED
#   make docs          every shell block of README.md and docs/ run as written
#   make stress        long sessions of short calls under CPU load, until a call stalls or the bound

GO          ?= go
BIN         ?= bin
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
ADDR        ?= 127.0.0.1:5000
CONFORMANCE_FLAGS ?=
SEEDS        ?= 200
MUTANT_SEEDS ?= 20
JOBS         ?= 4
STRESS_CALLS ?= 500000
STRESS_TIME  ?= 30m
STRESS_LOAD  ?= 6
SAMPLE       ?= 20
SEED         ?= 1
MUTATION_FLAGS ?=

.PHONY: all build test unit race spec-independent official-deps subject-deps client-deps official-conformance lint conformance docs soak stress mutants mutation bench mock browsers clean

all: build

# -buildvcs=auto stamps the commit into --version (and serverInfo) where a
# checkout is around, whatever GOFLAGS says.
build:
	$(GO) build -buildvcs=auto -o $(BIN)/ ./cmd/...

test: browsers lint unit race spec-independent

# Every Go test; the official MCP conformance scenarios run among them
# (TestOfficialConformance), with the npm package official-deps installs.
unit: official-deps subject-deps client-deps
	@echo "== unit: every Go test (go test ./...; the suite's own packages take about 7 minutes on 2 cores)"
	OMBI_MCP_OFFICIAL_CONFORMANCE=$(abspath conformance/official) OMBI_MCP_CLIENTS=$(abspath cmd/ombi-mcp/testdata/clients) $(GO) test -count=1 -timeout 20m ./...

# The concurrent code again under the race detector: the mock serves many
# clients at once, the server's client shares one token across calls. The
# detector sees only accesses that happen concurrently, so the mock runs
# under it the tests that drive concurrent traffic (mixed readers and
# writers, concurrent writes per domain) and those of its server, journal
# and faults; its one-request-at-a-time tests run in unit.
race:
	@echo "== race: the concurrent code under the race detector"
	$(GO) test -race -count=1 -run 'Concurren|Server|Start|Close|Journal|Fault' ./mockombi/
	$(GO) test -race -count=1 ./cmd/mockombi/ ./conformance/harness/
	$(GO) test -race -count=1 -run 'Client|Concurrent|Token|Login' ./server/

spec-independent:
	@echo "== spec-independent: every schema compiled by Ajv, a second JSON Schema implementation"
	sh spec/independent/check.sh

# The official MCP conformance suite (npm @modelcontextprotocol/conformance,
# pinned in conformance/official) runs its server scenarios against
# ombi-mcp --http on a loopback mockombi (TestOfficialConformance).
official-deps:
	cd conformance/official && npm ci --silent --no-audit --no-fund

# The Node subject of the any profile (conformance/subjects/nodeombi) runs
# on the MCP TypeScript SDK, installed from its lock file.
subject-deps:
	cd conformance/subjects/nodeombi && npm ci --silent --no-audit --no-fund

# Real MCP clients (the TypeScript SDK, MCP Inspector's CLI) that
# TestClients_resources drives over stdio and HTTP.
client-deps:
	cd cmd/ombi-mcp/testdata/clients && npm ci --silent --no-audit --no-fund

# Every shell block of README.md and docs/ as written, page by page, from a
# copy of the clone (docs/run_test.go; a block a test machine cannot run says
# what it needs). About 40 minutes on 2 cores; not part of make test.
docs: browsers
	@echo "== docs: every shell block of README.md and docs/ as written"
	$(GO) test -tags docs -count=1 -timeout 120m -v -run '^TestBlocks_run$$' ./docs/

official-conformance: official-deps
	OMBI_MCP_OFFICIAL_CONFORMANCE=$(abspath conformance/official) $(GO) test -count=1 -v -run '^TestOfficialConformance$$' ./cmd/ombi-mcp/

lint: duplicates
	@echo "== lint: gofmt, go vet, go mod tidy, staticcheck"
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) mod tidy -diff
	$(GO) run $(STATICCHECK) ./...

# Repeated code, counted by the duplicates tool where it is installed (a
# workplace command, not a module dependency): the number of pairs of places
# sharing six or more identical lines must not grow past the count recorded
# in .duplicates-baseline. Lower the baseline when a clean-up removes pairs.
DUPLICATES ?= duplicates
duplicates:
	@if ! command -v $(DUPLICATES) >/dev/null 2>&1; then echo "duplicates: $(DUPLICATES) not installed; repeated code not counted"; exit 0; fi; \
	line=$$($(DUPLICATES) --most 1 --seconds 300 | head -n 1); \
	pairs=$$(echo "$$line" | sed -n 's/^\([0-9]*\) pairs.*/\1/p'); shape=$$(echo "$$line" | sed -n 's/.*(\([0-9]*\) by shape alone.*/\1/p'); \
	if [ -z "$$pairs" ]; then pairs=0; shape=0; fi; identical=$$((pairs - $${shape:-0})); \
	base=$$(sed -n 's/^identical \([0-9]*\).*/\1/p' .duplicates-baseline); \
	echo "duplicates: $$identical pairs of identical runs (baseline $$base), $$pairs pairs in all"; \
	if [ "$$identical" -gt "$$base" ]; then echo "duplicates: more repeated code than .duplicates-baseline records; run duplicates --change and share the code"; exit 1; fi

conformance: build
	$(BIN)/ombi-conformance --server "$(abspath $(BIN))/ombi-mcp" --bundles core,moderation,administration $(CONFORMANCE_FLAGS)

# Not part of make test: the property areas of the reference server over
# SEEDS seeds and every mutant over MUTANT_SEEDS seeds; ends with a line
# "N passed, N failed".
soak: build subject-deps
	$(BIN)/ombi-conformance soak --server "$(abspath $(BIN))/ombi-mcp" --seeds $(SEEDS) --mutant-seeds $(MUTANT_SEEDS) --subjects conformance/subjects --jobs $(JOBS)

# Not part of make test: the reference server driven the way the
# conformance runs drive it (long stdio sessions of short tools/calls, two
# suite processes of three sessions each, STRESS_LOAD processes burning CPU
# beside them) until a call gets no answer within 10s or STRESS_CALLS calls
# or STRESS_TIME have passed. A stall prints where the call was stuck; the
# run then exits 1. Loopback only: the mock runs in the suite's processes.
stress: build
	$(BIN)/ombi-conformance stress --server "$(abspath $(BIN))/ombi-mcp" --calls $(STRESS_CALLS) --duration $(STRESS_TIME) --load $(STRESS_LOAD)

# Not part of make test (which judges a representative few): every
# source-level mutant (conformance/mutant/source_*.go: one planted bug in a
# copy of server/, built and judged with its own filter on a fixed seed)
# must be killed; prints the kill score by domain.
mutants:
	@mkdir -p $(BIN); OMBI_SOURCE_MUTANTS=all $(GO) test -count=1 -timeout 60m -v -run '^TestSourceMutants$$' ./conformance/ > $(BIN)/mutants.log 2>&1; rc=$$?; \
	grep -E '^ +(search|requests|users|admin|notifications|domain|kill score) ' $(BIN)/mutants.log; echo "full output: $(BIN)/mutants.log"; exit $$rc

# Not part of make test: an unbiased measure of the suite. SAMPLE operator
# mutants drawn with SEED from every swappable operator of server/ (no one
# chose them), each built and judged by the checks whose servers execute
# its operator (a coverage run finds them; a site none executes is a
# not-covered survivor); prints the kill score per package and every
# survivor. It measures and does not gate. MUTATION_FLAGS adds flags
# (-jobs, -record FILE, -only NAMES; see go run ./conformance/internal/mutation -h).
mutation:
	$(GO) run ./conformance/internal/mutation -sample $(SAMPLE) -seed $(SEED) $(MUTATION_FLAGS)

# Every benchmark, then the ratios each one measured against its floor in
# the same run (x-...: ombi-mcp over the floor; see docs/server.md,
# Performance). Nothing fails on a number; the output is kept in
# $(BIN)/bench.txt.
bench:
	@mkdir -p $(BIN)
	@{ $(GO) test -run '^$$' -bench . -benchmem ./... 2>&1; echo $$? > $(BIN)/bench.rc; } | tee $(BIN)/bench.txt
	@echo; echo "ratios against the floor measured in the same run:"
	@awk '/^Benchmark/ { out = ""; for (i = 3; i < NF; i += 2) if ($$(i+1) ~ /^x-/) out = out sprintf("  %s %s", $$i, $$(i+1)); if (out != "") printf "%-46s%s\n", $$1, out }' $(BIN)/bench.txt
	@exit $$(cat $(BIN)/bench.rc)

# mockombi on ADDR (127.0.0.1:5000, the port the docs use); the dashboard
# is at http://$(ADDR)/_mock/.
mock: build
	$(BIN)/mockombi --addr $(ADDR)

# Headless Chromium for the dashboard test (mockombi TestDashboard_inChromium);
# installed with apt-get when missing.
browsers:
	@echo "== browsers: Debian's chromium for the browser tests"
	@command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y chromium)

clean:
	rm -rf $(BIN)
