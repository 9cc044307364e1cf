// From what the daemon knows of a lane to the command that starts its agent confined:
// the facts made concrete on disk (real paths; the folders git and the harness must find
// made beforehand, since nothing can be created outside the writable places once inside),
// then the bubblewrap or sandbox-exec command line around the agent's own.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bwrapArgs } from './bwrapArgs';
import type { SandboxKind } from './sandboxMode';
import { sandboxMounts } from './sandboxPlan';
import type { Mount, SandboxFacts } from './sandboxPlan';
import { seatbeltProfile } from './seatbeltProfile';
import { homePaths } from '../../shared/svcHome';
import { isInside } from './sandboxPlan';
import { freshSandboxConfig, SVC_CONFIG_DIR } from './privateGitConfig';

export interface SandboxRequest {
  cwd: string;
  svcHome: string;
  /** The agent's environment and home, for `$VAR` and `~/` in the harness's state entries. */
  env: NodeJS.ProcessEnv;
  home: string;
  /** This worktree's git dir when known; else read from its `.git` file. */
  gitDir?: string;
  commonDir?: string;
  localRemotes: string[];
  hooksPath?: string;
  /** The harness profile's state entries as written (`~/.claude`, absolute paths). */
  state: string[];
  readable: string[];
  socket?: string;
}

const real = (p: string): string => {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

const exists = (p: string): boolean => fs.existsSync(p);

/**
 * A state entry that does not exist yet is made, so the harness can write it inside: a
 * name with an extension (`.claude.json`) as an empty file, anything else as a folder.
 */
function ensureState(p: string): void {
  if (fs.existsSync(p)) return;
  fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
  if (/.\.[A-Za-z0-9]+$/.test(path.basename(p))) fs.writeFileSync(p, '', { flag: 'a', mode: 0o600 });
  else fs.mkdirSync(p, { mode: 0o700 });
}

/**
 * A state entry as a path: `~/…` in the agent's home, `$VAR` and `${VAR:-fallback}` from
 * its environment (an unset `$VAR` names nothing); relative paths are refused by leaving them out.
 */
export function expandState(entry: string, env: NodeJS.ProcessEnv, home: string): string | undefined {
  let p = entry;
  const withDefault = /^\$\{([A-Za-z_][A-Za-z0-9_]*):-(.*)\}$/.exec(p);
  const bare = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(p);
  if (withDefault) p = env[withDefault[1]] || withDefault[2];
  else if (bare) p = env[bare[1]] ?? '';
  if (p === '~' || p.startsWith('~/')) p = path.join(home, p.slice(1));
  return path.isAbsolute(p) ? path.normalize(p) : undefined;
}

/**
 * The git dir of the worktree at `cwd`, read from its `.git` file (`gitdir: <path>`), or
 * the `.git` folder of a clone; undefined outside git. Read here rather than asked of git:
 * the facts the daemon probes ahead of a start are the project checkout's, not the lane's.
 */
export function worktreeGitDir(cwd: string): string | undefined {
  const dotGit = path.join(cwd, '.git');
  try {
    if (fs.statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(cwd, m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export function sandboxFacts(r: SandboxRequest, platform: NodeJS.Platform = process.platform): SandboxFacts {
  const gitDir = r.gitDir ?? worktreeGitDir(r.cwd);
  const state = r.state.map((e) => expandState(e, r.env, r.home)).filter((p): p is string => p !== undefined);
  for (const s of state) ensureState(s);
  // Git appends each branch's reflog under logs/; a repository that has none yet must get it now.
  if (r.commonDir) fs.mkdirSync(path.join(r.commonDir, 'logs'), { recursive: true });
  const commonDir = r.commonDir ? real(r.commonDir) : undefined;
  // bubblewrap only (Seatbelt cannot show the copy at the config's place): see privateGitConfig.ts.
  const configCopy = commonDir && platform !== 'darwin' ? freshSandboxConfig(commonDir) : undefined;
  const privateTmp =
    platform === 'darwin' ? ['/private/tmp', real(os.tmpdir())] : ['/tmp', ...(exists('/var/tmp') ? ['/var/tmp'] : [])];
  return {
    cwd: real(r.cwd),
    svcHome: real(r.svcHome),
    gitDir: gitDir ? real(gitDir) : undefined,
    commonDir,
    localRemotes: r.localRemotes.map(real),
    hooksPath: r.hooksPath ? real(r.hooksPath) : undefined,
    state: state.map(real),
    readable: r.readable.filter(exists).map(real),
    socket: r.socket,
    privateTmp: [...new Set(privateTmp)],
    // macOS has no private temporary folder: a socket folder there is hidden too.
    sockets: socketFolders(real(r.svcHome), platform === 'darwin' ? [] : privateTmp, r.socket),
    ...(configCopy && commonDir
      ? { privateConfig: { at: path.join(commonDir, SVC_CONFIG_DIR), from: configCopy } }
      : {}),
  };
}

/**
 * The folders where the daemon's sockets may live outside SVC_HOME (a home too long for a
 * socket path puts them in $XDG_RUNTIME_DIR or `<tmp>/svc-<uid>/`, shared/svcHome.ts), hidden
 * like SVC_HOME: a raw request on the shared socket is taken as the person's. The runtime
 * folder goes whole, wherever the sockets are: the person's SSH control sockets and session
 * bus live there too, and each runs commands as the person.
 */
function socketFolders(svcHome: string, alreadyHidden: string[], own: string | undefined): string[] {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const shared = path.dirname(homePaths(svcHome).socket);
  // The agents' own sockets of a long home go to `<tmp>/svc-<uid>/` even when the shared one
  // is in the runtime folder: every other agent's socket there is that agent to the daemon.
  // The lane's own socket is bound back into the hidden folder.
  const agents = own ? path.dirname(own) : undefined;
  const candidates = [runtime, shared, agents]
    .filter((p): p is string => !!p && path.isAbsolute(p) && exists(p))
    .map(real);
  const covered = (p: string) => isInside(p, svcHome) || alreadyHidden.some((t) => isInside(p, real(t)));
  return [...new Set(candidates.filter((p) => p !== '/' && !covered(p)))];
}

export function mountsOf(facts: SandboxFacts): Mount[] {
  return sandboxMounts(facts, exists);
}

/** The command and arguments that run `command args` inside the sandbox. */
export function sandboxedCommand(
  kind: Exclude<SandboxKind, 'none'>,
  tool: string,
  facts: SandboxFacts,
  command: string,
  args: string[],
): { command: string; args: string[] } {
  const mounts = mountsOf(facts);
  if (kind === 'bwrap') return { command: tool, args: [...bwrapArgs(mounts, facts.cwd), command, ...args] };
  return { command: tool, args: ['-p', seatbeltProfile(mounts), command, ...args] };
}
