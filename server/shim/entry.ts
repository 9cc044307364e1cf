// Entry of dist/svc.js: runs the command line with the real process streams.
import type { CliIo } from './cli';
import { runCli } from './main';

const io: CliIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  env: process.env,
  cwd: process.cwd(),
  stdin: () =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      process.stdin.on('data', (c: Buffer) => chunks.push(c));
      process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      process.stdin.on('error', reject);
    }),
};
// A command still waiting when nothing is left to wait on (a promise nobody will settle)
// must never end as a silent exit 0.
let settled = false;
process.on('beforeExit', () => {
  if (settled) return;
  process.stderr.write('svc: the command ended without an answer (an internal error); its action may or may not have happened\n');
  process.exit(1);
});
runCli(process.argv.slice(2), io).then(
  (code) => {
    settled = true;
    // Let stdout drain before exiting: pipes may be slow.
    process.stdout.write('', () => process.exit(code));
  },
  (e) => {
    settled = true;
    process.stderr.write(`svc: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  },
);
