#!/usr/bin/env bash
# The whole suite: type check, then every unit, HTTP and end-to-end test (PostgreSQL and PGlite).
# Run through `npm test`, which provisions Node and the dependencies first. With arguments,
# only the tests they name (vitest's own arguments).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== type check (tsc 7)"
npx tsc -p tsconfig.json
# Run alone, after the rest: the crash loop's three engine processes take both cores, and run
# beside it the browser tests took ten times as long (the whole suite 16 minutes instead of 6).
alone=(test/crash-loop.test.ts)
reports=()
status=0
run() {
  local report
  report="$(mktemp)"
  reports+=("$report")
  npx vitest run --reporter=default --reporter=json --outputFile="$report" "$@" || status=$?
}
if [ "$#" -gt 0 ]; then
  echo "== tests (vitest)"
  run "$@"
else
  echo "== tests (vitest)"
  run --exclude "${alone[@]}"
  echo "== tests run alone (vitest)"
  run "${alone[@]}"
fi
# One plain closing line that any CI log reader understands.
node -e '
  const runs = process.argv.slice(1).map((file) => JSON.parse(require("fs").readFileSync(file, "utf8")))
  const sum = (f) => runs.reduce((total, r) => total + f(r), 0)
  console.log(`${sum((r) => r.numPassedTests)} passed, ${sum((r) => r.numFailedTests)} failed, ${sum((r) => r.numPendingTests + (r.numTodoTests ?? 0))} skipped`)
' "${reports[@]}" || true
rm -f "${reports[@]}"
exit "$status"
