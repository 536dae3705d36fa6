#!/usr/bin/env bash
# The whole suite: type check, then every unit, HTTP and end-to-end test (PostgreSQL and PGlite).
# Run through `npm test`, which provisions Node and the dependencies first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== type check (tsc 7)"
npx tsc -p tsconfig.json
echo "== tests (vitest)"
results="$(mktemp)"
status=0
npx vitest run --reporter=default --reporter=json --outputFile="$results" "$@" || status=$?
# One plain closing line that any CI log reader understands.
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + (r.numTodoTests ?? 0)} skipped`)
' "$results" || true
rm -f "$results"
exit "$status"
