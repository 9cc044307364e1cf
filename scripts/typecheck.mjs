// `npm run typecheck`: one tsc per tier, each with its own runtime (tsconfig.base.json says
// which), then the root program of tests, scripts and bench. A Node API in a webview, or a
// DOM global in the daemon, fails here rather than at run time.
import { spawnSync } from 'node:child_process';

const programs = ['server', 'cli', 'webview', 'extension', '.'];
let failed = 0;
for (const p of programs) {
  const r = spawnSync('npx', ['tsc', '-p', p, '--noEmit'], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`typecheck: ${p === '.' ? 'tests, scripts and bench' : `${p}/`} failed`);
    failed = r.status || 1;
  }
}
if (failed) process.exit(failed);
console.log(`typecheck: ok (${programs.map((p) => (p === '.' ? 'root' : p)).join(', ')})`);
