#!/usr/bin/env bash
# Copies the README tour's screenshots from the last e2e run (npm run test:e2e writes
# them to .scratch/e2e-screenshots/) into docs/screenshots/. The deck, reviews and
# conversation shots come from the demo's state instead: npm run demo, then npm run demo:screenshots.
set -euo pipefail
cd "$(dirname "$0")/.."
src=.scratch/e2e-screenshots
cp "$src/16-agents-page.png" docs/screenshots/agents.png
cp "$src/06-roles.png" docs/screenshots/roles.png
echo "updated docs/screenshots/ from $src"
