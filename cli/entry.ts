// Entry of dist/svc.js: runs the command line with the real process streams.
// The hot commands (`svc daemon status` and the other daemon commands, `svc --version`:
// what scripts, agents and the extension run most) are run from this small bundle alone;
// every other command loads the full command line (dist/svcCommands.js, from main.ts)
// first. Compiling the whole command set was most of a status check's cost beyond `node`.
import { join } from 'node:path';
import { SVC_VERSION } from '../shared/version';
import type { CliIo } from './cli';
import type * as FullCommandLine from './main';
import { hotCommand } from './hotCommands';
import { runSpec } from './runSpec';

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

function run(argv: string[]): Promise<number> {
  if (argv[0] === '--version') {
    io.out(`svc ${SVC_VERSION}\n`);
    return Promise.resolve(0);
  }
  const hot = hotCommand(argv);
  if (hot) return runSpec(hot.spec, hot.rest, io);
  // Beside this bundle in dist/ (and on a host, in its build folder); not bundled into it,
  // so loaded by a path esbuild leaves alone, synchronously as every bundle here is.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const full = require(join(__dirname, 'svcCommands.js')) as typeof FullCommandLine;
  return full.runCli(argv, io);
}

// A command still waiting when nothing is left to wait on (a promise nobody will settle)
// must never end as a silent exit 0.
let settled = false;
process.on('beforeExit', () => {
  if (settled) return;
  process.stderr.write(
    'svc: the command ended without an answer (an internal error); its action may or may not have happened\n',
  );
  process.exit(1);
});
Promise.resolve()
  .then(() => run(process.argv.slice(2)))
  .then(
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
