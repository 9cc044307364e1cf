#!/usr/bin/env bash
# Copies the built package (dist/, bin/, shared/skills/) to a folder inside the checkout,
# so long benchmarks run against fixed bundles while the checkout is rebuilt.
# Usage: scripts/snapshotPkg.sh <dir>   then SVC_PKG_DIR=<dir> npx tsx bench/x.bench.ts
set -euo pipefail
dest=${1:?usage: scripts/snapshotPkg.sh <dir>}
rm -rf "$dest" && mkdir -p "$dest/shared"
cp -r dist bin "$dest/"
cp -r shared/skills "$dest/shared/"
