// The demo's code-server: the packaged .vsix installed into a fresh profile under .demo/,
// the demo home as HOME and SVC_HOME (docs/e2e.md's recipe), on a free port of
// 127.0.0.1. Shared by `npm run demo:ui` (serves until Ctrl-C) and `npm run
// demo:screenshots` (drives it with chromium).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..');
export const DEMO = path.join(REPO, '.demo');
export const HOME = path.join(DEMO, 'home');
export const SVC_HOME = path.join(HOME, '.svc');
export const CODE_SERVER = path.join(REPO, '.code-server', 'node_modules', '.bin', 'code-server');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };
export const VSIX = path.join(REPO, 'out', `${pkg.name}-${pkg.version}.vsix`);

/** `want`, or any free port for 0. */
function freePort(want: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(want, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface CodeServer {
  port: number;
  /** Waits until code-server answers its health check (at most `timeoutMs`). */
  ready(timeoutMs: number): Promise<void>;
  /** Stops code-server and what it started (its process group). */
  stop(): void;
}

/**
 * Starts code-server on a fresh profile `.demo/<profile>` with `settings` beside the
 * defaults, on `port` (default: any free one); `stderr: 'inherit'` shows its complaints
 * in the terminal.
 */
export async function startCodeServer(o: {
  profile: string;
  settings?: Record<string, unknown>;
  port?: number;
  stderr: 'ignore' | 'inherit';
}): Promise<CodeServer> {
  const profile = path.join(DEMO, o.profile);
  const userData = path.join(profile, 'user-data');
  const extensions = path.join(profile, 'extensions');
  fs.rmSync(profile, { recursive: true, force: true });
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'telemetry.telemetryLevel': 'off',
        'workbench.startupEditor': 'none',
        'extensions.autoUpdate': false,
        'security.workspace.trust.enabled': false,
        ...o.settings,
      },
      null,
      2,
    ),
  );
  const env: NodeJS.ProcessEnv = { ...process.env, HOME, SVC_HOME };
  delete env.SVC_CONVERSATION;
  const base = ['--config', '/dev/null', '--user-data-dir', userData, '--extensions-dir', extensions];
  const install = spawnSync(CODE_SERVER, [...base, '--install-extension', VSIX], { env, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`installing ${VSIX} failed:\n${install.stdout}${install.stderr}`);

  const port = await freePort(o.port ?? 0);
  const child = spawn(
    CODE_SERVER,
    [
      ...base,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
    ],
    {
      env,
      detached: true,
      stdio: ['ignore', 'ignore', o.stderr],
    },
  );
  return {
    port,
    async ready(timeoutMs) {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
        if (
          await fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop() {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}
