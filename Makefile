# ombi-mcp: conformance kit, reference server and mock Ombi.
#
#   make conformance   run the conformance suite against the reference server on the embedded mock
#   make test          run every test (unit, spec, mock, server, suite, mutants, independent schema check)

GO          ?= go
BIN         ?= bin
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
ADDR        ?= 127.0.0.1:5000
CONFORMANCE_FLAGS ?=

.PHONY: all build test unit race spec-independent lint conformance bench mock clean

all: build

build:
	$(GO) build -o $(BIN)/ ./cmd/...

test: lint unit race spec-independent

unit:
	$(GO) test -count=1 ./...

# The concurrent packages again under the race detector: the mock serves
# many clients at once, the server's client shares one token across calls.
race:
	$(GO) test -race -count=1 ./mockombi/... ./cmd/mockombi/ ./conformance/harness/
	$(GO) test -race -count=1 -run 'Client|Concurrent|Token|Login' ./server/

spec-independent:
	sh spec/independent/check.sh

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

conformance: build
	$(BIN)/ombi-conformance --server "$(abspath $(BIN))/ombi-mcp" $(CONFORMANCE_FLAGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

mock: build
	$(BIN)/mockombi --addr $(ADDR)

clean:
	rm -rf $(BIN)
