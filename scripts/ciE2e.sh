#!/usr/bin/env bash
# CI step for the extension's e2e suites (docs/e2e.md), called from .ci/run after
# `npm ci` and `npm test`. Idempotent: installs only what is missing, then runs
# `npm run test:e2e`. Installs: Debian chromium (+ the native build tools code-server's
# modules need), then code-server 4.100.3 and @vscode/vsce 3.9.1 into the git-ignored
# .code-server/ (scripts/installCodeServer.sh, which seeds the ripgrep download cache).
# Screenshots (and, on failure, code-server.log and daemon.log): .scratch/e2e-screenshots/
set -euo pipefail
cd "$(dirname "$0")/.."

# What code-server's install compiles with (scripts/uiPackages.json, the list demo:ui checks), and the browser.
read -r -a packages <<<"$(node -p "require('./scripts/uiPackages.json').map((p) => p.package).join(' ')") chromium"
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "== Debian packages for e2e: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== code-server and vsce"
bash scripts/installCodeServer.sh

echo "== npm run test:e2e"
npm run test:e2e
