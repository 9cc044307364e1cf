// `npm run demo:ui`: the demo's state opened in a real VS Code — code-server on
// 127.0.0.1 with the packaged .vsix installed and the demo home as HOME and SVC_HOME
// (../shared/E2E.md's recipe). Prints the URL, then serves until Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const DEMO = path.join(REPO, '.demo');
const HOME = path.join(DEMO, 'home');
const SVC_HOME = path.join(HOME, '.svc');
const CODE_SERVER = path.join(REPO, '.code-server', 'node_modules', '.bin', 'code-server');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };
const VSIX = path.join(REPO, 'out', `${pkg.name}-${pkg.version}.vsix`);

function step(what: string, cmd: string, args: string[]): void {
  process.stdout.write(`== ${what}\n`);
  const r = spawnSync(cmd, args, { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(Number(process.env.SVC_DEMO_PORT ?? 0), '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(SVC_HOME, 'svc.db'))) step('no demo state yet: running npm run demo', 'npm', ['run', 'demo']);
  if (!fs.existsSync(CODE_SERVER)) step('installing code-server into .code-server/', 'bash', ['scripts/installCodeServer.sh']);
  step('packaging the extension', process.execPath, ['scripts/package.mjs']);

  const profile = path.join(DEMO, 'code-server');
  const userData = path.join(profile, 'user-data');
  const extensions = path.join(profile, 'extensions');
  fs.rmSync(profile, { recursive: true, force: true });
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ 'telemetry.telemetryLevel': 'off', 'workbench.startupEditor': 'none', 'extensions.autoUpdate': false, 'security.workspace.trust.enabled': false }, null, 2),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, HOME, SVC_HOME };
  delete env.SVC_CONVERSATION;
  const base = ['--config', '/dev/null', '--user-data-dir', userData, '--extensions-dir', extensions];
  const install = spawnSync(CODE_SERVER, [...base, '--install-extension', VSIX], { env, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`installing ${VSIX} failed:\n${install.stdout}${install.stderr}`);

  const port = await freePort();
  const child = spawn(CODE_SERVER, [...base, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust'], {
    env,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const folder = path.join(HOME, 'sample');
  process.stdout.write(`\nsvc demo in VS Code: open http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}\n(the svc icon in the activity bar; Ctrl-C stops code-server)\n`);
}

main().catch((e) => {
  process.stderr.write(`demo:ui failed: ${(e as Error).message}\n`);
  process.exit(1);
});
