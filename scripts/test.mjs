// `npm test`: the system packages it needs (scripts/checkPrerequisites.mjs), then build, lint (ESLint: promises, type imports, cycles, tier boundaries), the
// Prettier check, the per-tier type checks, then the unit and integration suites.
// Every step must pass; the first failure stops the run with its exit code.
import { spawnSync } from 'node:child_process';

const steps = [
  // Seconds, before anything else: a missing sshd or bwrap would otherwise fail suites 20 minutes in.
  ['prerequisites', ['node', 'scripts/checkPrerequisites.mjs']],
  // The SQLite module for the Node that runs the suites (seconds once .native/ has it).
  // Every other supported Node is CI's: .ci/run builds them all and scripts/ciNodeMatrix.sh
  // runs the unit suite, the store/daemon/lanes/reap/review files and nodeRuntime (against
  // the .vsix, which must hold every Node's module) under each.
  ['build', ['node', 'scripts/build.mjs']],
  ['lint', ['npx', 'eslint', '--max-warnings', '0', '.']],
  ['format', ['npx', 'prettier', '--check', '.']],
  ['typecheck', ['node', 'scripts/typecheck.mjs']],
  ['unit', ['npx', 'mocha', '--config', '.mocharc.unit.json']],
  ['integration', ['npx', 'mocha', '--config', '.mocharc.integration.json']],
];
const only = process.argv.slice(2);
for (const [name, cmd] of steps) {
  if (only.length && !only.includes(name) && name !== 'prerequisites') continue;
  console.log(`\n== ${name}: ${cmd.join(' ')}`);
  const r = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`\n== ${name} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}
