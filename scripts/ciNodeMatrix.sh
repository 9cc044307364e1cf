#!/usr/bin/env bash
# CI step: svc under every supported Node (shared/node/supportedNode.json), called from
# .ci/run after `npm run build -- --every-node` and `npm test` (which ran everything under the machine's
# own Node). For each supported Node, installed from the npm registry into the
# git-ignored .node-versions/ (scripts/registryNode.mjs):
#   1. the unit suite and the integration files of the store, the daemon, lanes, reap and
#      review ($SUBSET), against the `npm run build -- --every-node` output in dist/;
#   2. test/integration/nodeRuntime (daemon start, a lane launch, a report, a reap, and
#      the refusals) against the packaged .vsix contents (SVC_PKG_DIR).
# In-process tests open SQLite through node_modules/better-sqlite3, so for each Node its
# build from .native/ is put there for the duration, and npm ci's build put back after.
set -euo pipefail
cd "$(dirname "$0")/.."

SUBSET=(
  test/integration/nodeRuntime.integration.test.ts
  test/integration/daemonLifecycle.integration.test.ts
  test/integration/lanesLifecycle.integration.test.ts
  test/integration/lanesReap.integration.test.ts
  test/integration/reviewLoop.integration.test.ts
  test/integration/codehostLocal.integration.test.ts
)
started=$(date +%s)

if ! command -v unzip >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends unzip >/dev/null
fi

echo "== the .vsix, unpacked into .scratch/vsix/"
node scripts/package.mjs --no-build
version=$(node -p 'require("./package.json").version')
rm -rf .scratch/vsix && mkdir -p .scratch/vsix
unzip -q "out/svc-$version.vsix" -d .scratch/vsix
vsix_pkg="$PWD/.scratch/vsix/extension"

installed=node_modules/better-sqlite3/build/Release/better_sqlite3.node
cp "$installed" .scratch/better_sqlite3.npm-ci.node
restore() { cp .scratch/better_sqlite3.npm-ci.node "$installed"; }
trap restore EXIT

node scripts/registryNode.mjs > .scratch/node-bins.txt
own_major=$(node -p 'process.versions.node.split(".")[0]')
while read -r major bin; do
  t=$(date +%s)
  abi=$("$bin/node" -p process.versions.modules)
  cp "$(node --input-type=module -e "import { cachedBinary } from './scripts/buildNative.mjs'; console.log(cachedBinary($abi))")" "$installed"
  run_mocha() { PATH="$bin:$PATH" "$bin/node" node_modules/mocha/bin/mocha.js "$@"; }
  if [ "$major" != "$own_major" ]; then # npm test ran these under the machine's Node already
    echo "== Node $major ($("$bin/node" --version)): unit suite"
    run_mocha --config .mocharc.unit.json
    echo "== Node $major: store, daemon, lanes, reap and review from dist/"
    run_mocha --config .mocharc.one.json "${SUBSET[@]}"
  fi
  echo "== Node $major: daemon, lane launch, report and reap from the .vsix"
  SVC_PKG_DIR="$vsix_pkg" run_mocha --config .mocharc.one.json test/integration/nodeRuntime.integration.test.ts
  echo "== Node $major: $(( $(date +%s) - t )) s"
done < .scratch/node-bins.txt
echo "== every supported Node: $(( $(date +%s) - started )) s"
