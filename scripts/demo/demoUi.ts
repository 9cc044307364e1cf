// `npm run demo:ui`: the demo's state opened in a real VS Code — code-server on
// 127.0.0.1 with the packaged .vsix installed and the demo home as HOME and SVC_HOME
// (docs/e2e.md's recipe). Prints the URL, then serves until Ctrl-C.
// A first run checks the system packages code-server's install compiles with
// (scripts/checkPrerequisites.mjs ui) before anything slow, says how long it will take, and
// packages the SQLite module of the running Node only (`--every-node`: every supported one).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER, HOME, REPO, SVC_HOME, startCodeServer } from './codeServer';
import { firstRunNote } from './demoUiNote';

function step(what: string, cmd: string, args: string[]): void {
  process.stdout.write(`== ${what}\n`);
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

async function main(): Promise<void> {
  const started = Date.now();
  const everyNode = process.argv.includes('--every-node');
  const needsDemo = !fs.existsSync(path.join(SVC_HOME, 'svc.db'));
  const needsCodeServer = !fs.existsSync(CODE_SERVER);
  // Before anything slow: code-server's install fails late (minutes in) without these.
  if (needsCodeServer)
    step('system packages code-server needs', process.execPath, ['scripts/checkPrerequisites.mjs', 'ui']);
  const note = firstRunNote({ demo: needsDemo, codeServer: needsCodeServer });
  if (note) process.stdout.write(`${note}\n`);
  if (needsDemo) step('no demo state yet: running npm run demo', 'npm', ['run', 'demo']);
  if (needsCodeServer) step('installing code-server into .code-server/', 'bash', ['scripts/installCodeServer.sh']);
  step('packaging the extension', process.execPath, ['scripts/package.mjs', ...(everyNode ? [] : ['--this-node'])]);

  const server = await startCodeServer({
    profile: 'code-server',
    port: Number(process.env.SVC_DEMO_PORT ?? 0),
    stderr: 'inherit',
  });
  const stop = () => {
    server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.ready(30_000);
  const port = server.port;
  const folder = path.join(HOME, 'sample');
  process.stdout.write(
    `\nsvc demo in VS Code (ready in ${Math.round((Date.now() - started) / 1000)} s): open http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}\n(the svc icon in the activity bar; Ctrl-C stops code-server)\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`demo:ui failed: ${(e as Error).message}\n`);
  process.exit(1);
});
