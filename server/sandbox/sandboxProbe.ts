// Whether this machine can start the sandbox, and if not, why and what to do: asked before
// every sandboxed start (a success is remembered for a minute), by `svc doctor`, and, with
// the same command over SSH, by `svc host check`. A `workspace` lane never starts unconfined.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BWRAP_BASE_ARGS } from './bwrapArgs';
import { sandboxKindOf } from './sandboxMode';

export type SandboxHealth = { ok: true; tool: string; version: string } | { ok: false; reason: string; fix: string };

export const OFF_FIX = 'or run the lane unconfined with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)';
export const BWRAP_INSTALL_FIX = `install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) ${OFF_FIX}`;
export const USERNS_FIX = `allow unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also sysctl -w kernel.apparmor_restrict_unprivileged_userns=0) ${OFF_FIX}`;

/**
 * How bubblewrap fails where AppArmor restricts unprivileged user namespaces (Ubuntu 24.04
 * and later, Debian 13): it may create the namespace but not map the user into it, or not
 * bring up its loopback.
 */
export const APPARMOR_SIGNS = 'setting up uid map: Permission denied|loopback: Failed RTM_NEWADDR';
const APPARMOR_SIGN = new RegExp(APPARMOR_SIGNS);

export function isAppArmorRefusal(bwrapOutput: string): boolean {
  return APPARMOR_SIGN.test(bwrapOutput);
}

/**
 * Why bubblewrap (at `bwrap`) could not start the smallest sandbox, from the error line
 * worth quoting, and what to do: the same words here (a lane's start, `svc doctor`) and on
 * a host (`svc host check`, `where` = "there").
 */
export function bwrapFailure(bwrap: string, errorLine: string, where = 'here'): { reason: string; fix: string } {
  return isAppArmorRefusal(errorLine)
    ? {
        reason: `AppArmor restricts unprivileged user namespaces ${where}, so bubblewrap cannot create the sandbox (${errorLine})`,
        fix: appArmorFix(bwrap),
      }
    : { reason: `bubblewrap cannot create the sandbox's namespaces ${where} (${errorLine})`, fix: USERNS_FIX };
}

/** The narrowest fix first: a profile that lets bwrap alone use user namespaces, then the switch for every program. */
export function appArmorFix(bwrap: string): string {
  const profile = `abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap ${bwrap} flags=(unconfined) {\\n  userns,\\n}\\n`;
  return (
    `let bubblewrap alone use user namespaces with an AppArmor profile: printf '${profile}' | sudo tee /etc/apparmor.d/bwrap && sudo apparmor_parser -r /etc/apparmor.d/bwrap; ` +
    `or allow them for every program: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (add it to /etc/sysctl.d/ to keep it); ${OFF_FIX}`
  );
}

/** The smallest sandbox an agent gets: if this runs, the agent's can. */
export const BWRAP_PROBE_ARGS = [...BWRAP_BASE_ARGS, '--tmpfs', '/tmp', '--', '/bin/sh', '-c', ':'];

/** The first file named `name` in the folders of `dirs` (a PATH). */
export function onPath(name: string, dirs: string | undefined): string | undefined {
  for (const dir of (dirs ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      if (fs.statSync(p).isFile()) return p;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The error line worth quoting: the one that names the failure, else the first (a host's probe picks the same, APPARMOR_SIGNS). */
function firstLine(out: string, code: number | null): string {
  const lines = out.split('\n');
  return lines.find((l) => isAppArmorRefusal(l)) ?? (lines[0] || `exit ${code}`);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, out: e.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out: out.trim() });
    });
  });
}

/**
 * `pathName`: whose PATH bwrap was looked for on, as the reason says it (the daemon's, a
 * host's login PATH); `where`: the machine, as the reason names it (`there` on a host).
 */
export async function probeSandbox(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
  pathName = "the daemon's PATH",
  where = 'here',
): Promise<SandboxHealth> {
  const kind = sandboxKindOf(platform);
  if (kind === 'none')
    return {
      ok: false,
      reason: `svc has no sandbox on ${platform}`,
      fix: 'run lanes with --sandbox off (the default there)',
    };
  if (kind === 'seatbelt') {
    const exe = onPath('sandbox-exec', `/usr/bin:${env.PATH ?? ''}`);
    return exe
      ? { ok: true, tool: exe, version: 'Seatbelt' }
      : { ok: false, reason: 'sandbox-exec is missing', fix: `reinstall macOS's /usr/bin/sandbox-exec ${OFF_FIX}` };
  }
  const bwrap = onPath('bwrap', env.PATH);
  if (!bwrap)
    return { ok: false, reason: `bubblewrap (bwrap) is not installed or not on ${pathName}`, fix: BWRAP_INSTALL_FIX };
  const probe = await run(bwrap, BWRAP_PROBE_ARGS, env);
  if (probe.code !== 0) return { ok: false, ...bwrapFailure(bwrap, firstLine(probe.out, probe.code), where) };
  const version = (await run(bwrap, ['--version'], env)).out.replace(/^bubblewrap\s*/, '');
  return { ok: true, tool: bwrap, version };
}

/** probeSandbox with a working answer kept for a minute: a lane start costs one bwrap run at most that often. */
export class SandboxProbe {
  private good?: { at: number; health: SandboxHealth };

  constructor(private readonly now: () => number = Date.now) {}

  async check(env: NodeJS.ProcessEnv): Promise<SandboxHealth> {
    if (this.good && this.now() - this.good.at < 60_000) return this.good.health;
    const health = await probeSandbox(env);
    this.good = health.ok ? { at: this.now(), health } : undefined;
    return health;
  }
}
