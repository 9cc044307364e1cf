// A code-server 4.100.3 (real VS Code 1.100.3 server) for the e2e suites, per
// docs/e2e.md: fresh profile, the packed .vsix installed, the daemon's HOME and
// SVC_HOME in a scratch folder of the checkout, the whole process group killed at the end.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { makeScratch, REPO, run, sleep } from '../../helpers/scratch';
import type { Scratch } from '../../helpers/scratch';

export const CODE_SERVER = path.join(REPO, '.code-server', 'node_modules', '.bin', 'code-server');
export const EXTENSION_ID = 'svc-dev.svc';

export interface CodeServer {
  scratch: Scratch;
  port: number;
  url: string;
  /** The folder the workbench opens. */
  workspace: string;
  extensionsDir: string;
  /** The installed extension (the unpacked .vsix): its shim drives the tests, and the in-host suite runs it. */
  extensionDir: string;
  userDataDir: string;
  /** Where the in-host suite writes its JSON results (passed in SVC_E2E_RESULTS). */
  resultsFile: string;
  log: string;
  /** code-server's environment: scratch HOME and SVC_HOME, the real PATH (without the checkout's bin). */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

const SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'git.openRepositoryInParentFolders': 'never',
  // No Inbox notifications: the suites assert the exact notifications they expect, and a toast
  // for each new inbox item would sit over their buttons. inbox.e2e turns needs-you on itself.
  'svc.inbox.mutedKinds': ['needs-you', 'blocked', 'failed-start', 'stalled', 'changes-requested'],
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on a fresh scratch home, or on `o.scratch` (a home that already has
 * state, e.g. the demo's) opening `o.workspace` in it.
 */
export async function startCodeServer(
  vsix: string,
  o: { scratch?: Scratch; workspace?: string } = {},
): Promise<CodeServer> {
  if (!fs.existsSync(CODE_SERVER))
    throw new Error(`code-server is not installed in .code-server/: run scripts/installCodeServer.sh`);
  const scratch = o.scratch ?? makeScratch('e2e');
  const userDataDir = path.join(scratch.root, 'user-data');
  const extensionsDir = path.join(scratch.root, 'extensions');
  const workspace = o.workspace ?? path.join(scratch.home, 'workspace');
  const resultsFile = path.join(scratch.root, 'inhost-results.json');
  const log = path.join(scratch.root, 'code-server.log');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  if (!o.workspace) {
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'README.md'), '# e2e workspace\n');
  }
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  const env: NodeJS.ProcessEnv = { ...scratch.env, PATH: process.env.PATH, SVC_E2E_RESULTS: resultsFile };
  delete env.VSCODE_IPC_HOOK_CLI; // a parent VS Code terminal must not capture the CLI

  const base = ['--config', '/dev/null', '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  const install = spawnSync(CODE_SERVER, [...base, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (install.status !== 0)
    throw new Error(`installing ${vsix} failed (${install.status}):\n${install.stdout}\n${install.stderr}`);
  // Everything runs the installed build, so a rebuild of the checkout's dist/ mid-run (other
  // engineers share it) never brings a daemon of another build into the run.
  const extensionDir = installedDir(extensionsDir);
  env.SVC_E2E_EXTENSION_DIR = extensionDir;

  const port = await freePort();
  const out = fs.openSync(log, 'a');
  const child: ChildProcess = spawn(
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
    { env, detached: true, stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));

  const stop = async () => {
    if (child.pid && exited === undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 50 && exited === undefined; i++) await sleep(100);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone
      }
    }
    await scratch.dispose(); // stops the daemon of the scratch SVC_HOME, removes the folder
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== undefined)
      throw new Error(
        `code-server exited with ${exited} before it was ready; see ${log}:\n${fs.readFileSync(log, 'utf8').slice(-2000)}`,
      );
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer /healthz within 30 s; see ${log}`);
    }
    await sleep(100);
  }
  return { scratch, port, url, workspace, extensionsDir, extensionDir, userDataDir, resultsFile, log, env, stop };
}

/** The installed extension's folder (for checks on what the .vsix shipped). */
export function installedExtensionDir(cs: CodeServer): string {
  return installedDir(cs.extensionsDir);
}

function installedDir(extensionsDir: string): string {
  const dir = fs.readdirSync(extensionsDir).find((d) => d.startsWith(`${EXTENSION_ID}-`));
  if (!dir) throw new Error(`${EXTENSION_ID} is not installed in ${extensionsDir}`);
  return path.join(extensionsDir, dir);
}

/** Runs the installed extension's shim (`node <ext>/dist/svc.js …`) with the run's HOME and SVC_HOME. */
export function installedSvc(cs: CodeServer, args: string[]) {
  return run(process.execPath, [path.join(cs.extensionDir, 'dist', 'svc.js'), ...args], {
    env: cs.env,
    cwd: cs.scratch.home,
    timeoutMs: 90_000,
  });
}
