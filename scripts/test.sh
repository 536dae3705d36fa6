#!/usr/bin/env bash
# The whole suite: type check, then every unit, HTTP and end-to-end test (PostgreSQL and PGlite).
# Run through `npm test`, which provisions Node 24 and the dependencies first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== type check (tsc 7)"
npx tsc -p tsconfig.json
echo "== tests (vitest)"
npx vitest run "$@"
