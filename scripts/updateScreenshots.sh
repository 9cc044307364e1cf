#!/usr/bin/env bash
# Copies the README tour's screenshots from the last e2e run (npm run test:e2e writes
# them to .scratch/e2e-screenshots/) into docs/screenshots/.
set -euo pipefail
cd "$(dirname "$0")/.."
src=.scratch/e2e-screenshots
cp "$src/15-awareness-card-expanded.png" docs/screenshots/deck.png
cp "$src/12-conversation-needs-you.png" docs/screenshots/conversation.png
cp "$src/16-agents-page.png" docs/screenshots/agents.png
cp "$src/17-reviews-tree.png" docs/screenshots/reviews.png
cp "$src/06-roles.png" docs/screenshots/roles.png
echo "updated docs/screenshots/ from $src"
