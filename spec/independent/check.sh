#!/bin/sh
# Independent check of spec/: compiles every strict input, published input and
# composed output schema with Ajv (draft 2020-12). Needs node, npm and go.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
npm ci --silent --no-audit --no-fund
(cd "$here/.." && go run ./internal/genpublished -outputs "$tmp/outputs.json")
node "$here/check.js" "$tmp/outputs.json"
