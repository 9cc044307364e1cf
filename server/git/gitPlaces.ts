// Where git keeps a worktree's repository and its local push remotes: what the sandbox
// binds (server/sandbox), what a harness is offered as writable (conversations/writableDirs.ts)
// and where a push through svc may go (lanes/lanePush.ts). Asked of git as child processes,
// each probe at once, time-bound.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AGENT_PROBE_TIMEOUT_MS, GitTimeout, spawnGit } from './gitExec';

/** Stdout of a git that succeeded; undefined when it failed; GitTimeout's text when it did not answer in time. */
function gitOut(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  timeoutMs: number,
): Promise<string | undefined | GitTimeout> {
  return spawnGit(cwd, args, { env, timeoutMs }).then(
    (r) => (r.code === 0 ? r.stdout.toString('utf8').trim() : undefined),
    (e: unknown) => (e instanceof GitTimeout ? e : undefined),
  );
}

export interface GitPlaces {
  /** The repository's git dir and common dir (absolute), when `cwd` is in one. */
  gitDir?: string;
  commonDir?: string;
  /** Push URLs of the remotes that are local folders, real paths. */
  localRemotes: string[];
  /** The same remotes' push URLs as git names them (what `url.<base>.pushInsteadOf` matches). */
  localRemoteUrls: string[];
  /** core.hooksPath as an absolute path (a relative one is the worktree's), when set. */
  hooksPath?: string;
  /** Git did not answer in time: the places are unknown this once (never kept). */
  timedOut?: string;
}

/** Where git keeps `cwd`'s repository and its local remotes; every probe runs at once. */
export async function gitPlaces(
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = AGENT_PROBE_TIMEOUT_MS,
): Promise<GitPlaces> {
  let timedOut: string | undefined;
  const text = (v: string | undefined | GitTimeout): string | undefined => {
    if (!(v instanceof GitTimeout)) return v;
    timedOut ??= v.message;
    return undefined;
  };
  const [dirs, remotes, hooks] = (
    await Promise.all([
      gitOut(cwd, env, ['rev-parse', '--path-format=absolute', '--absolute-git-dir', '--git-common-dir'], timeoutMs),
      gitOut(cwd, env, ['remote'], timeoutMs),
      gitOut(cwd, env, ['config', '--path', '--get', 'core.hooksPath'], timeoutMs),
    ])
  ).map(text);
  const [gitDir, commonDir] = dirs?.split('\n') ?? [];
  const urls = (
    await Promise.all(
      (remotes ?? '')
        .split('\n')
        .filter(Boolean)
        .map((r) => gitOut(cwd, env, ['remote', 'get-url', '--push', '--', r], timeoutMs)),
    )
  ).map(text);
  const localRemotes: string[] = [];
  const localRemoteUrls: string[] = [];
  for (const url of urls) {
    if (!url) continue;
    const local = url.startsWith('file://') ? url.slice('file://'.length) : url;
    if (!path.isAbsolute(local) || !isDir(local)) continue;
    localRemotes.push(fs.realpathSync(local));
    localRemoteUrls.push(url);
  }
  const hooksPath = hooks ? path.resolve(cwd, hooks) : undefined;
  return {
    gitDir: gitDir || undefined,
    commonDir: commonDir || undefined,
    localRemotes,
    localRemoteUrls,
    ...(hooksPath ? { hooksPath } : {}),
    ...(timedOut ? { timedOut } : {}),
  };
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
