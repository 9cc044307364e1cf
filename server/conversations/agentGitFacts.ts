// What every agent start needs from git: the user's identity (gitIdentity.ts) and where the
// repository and its local remotes live (writableDirs.ts). The probes run as child
// processes at once, never synchronously on the daemon's loop, and their answer is kept
// per working directory for as long as every config file git read it from is unchanged,
// so the second conversation in a folder (the five reviewers of a run, a project's next
// conversation) starts without running git at all. A config with an include is not kept
// (what it includes is not watched); nor is one written in the last seconds (an edit in
// the same clock tick as its stamp would go unseen), as git does with racily clean files.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logger } from '../util/log';
import { gitIdentity } from './gitIdentity';
import { gitPlaces } from './writableDirs';
import type { GitPlaces } from './writableDirs';

export interface AgentGitFacts {
  identity: Record<string, string>;
  places: GitPlaces;
}

/** Git facts read ahead of an agent's start (ConversationService.prepareStart). */
export interface PreparedStart {
  readonly facts: Promise<AgentGitFacts>;
}

interface Kept {
  facts: Promise<AgentGitFacts>;
  /** Set once the facts are known and may be kept: file → stamp. */
  stamps?: Map<string, string>;
}

const log = logger('git-facts');
const MAX_KEPT = 500;
const RACY_MS = 2000;
const kept = new Map<string, Kept>();

export function agentGitFacts(cwd: string, env: NodeJS.ProcessEnv): Promise<AgentGitFacts> {
  const k = kept.get(cwd);
  if (k && (!k.stamps || [...k.stamps].every(([file, st]) => stamp(file) === st))) return k.facts;
  const entry: Kept = { facts: probe(cwd, env, (stamps) => (entry.stamps = stamps)) };
  entry.facts
    .catch(() => undefined)
    .finally(() => {
      if (!entry.stamps && kept.get(cwd) === entry) kept.delete(cwd); // not keepable: the next start probes again
    });
  kept.delete(cwd);
  kept.set(cwd, entry);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return entry.facts;
}

/** Forgets every kept answer (tests). */
export function forgetAgentGitFacts(): void {
  kept.clear();
}

async function probe(
  cwd: string,
  env: NodeJS.ProcessEnv,
  keep: (stamps: Map<string, string>) => void,
): Promise<AgentGitFacts> {
  const started = Date.now();
  const [id, places] = await Promise.all([gitIdentity(cwd, env), gitPlaces(cwd, env)]);
  const files = new Set([
    ...configFiles(env),
    path.join(cwd, '.git'),
    ...id.origins.map((o) => path.resolve(cwd, o)),
    ...places.localRemotes,
  ]);
  if (places.commonDir) files.add(path.join(places.commonDir, 'config'));
  if (places.gitDir) files.add(path.join(places.gitDir, 'config.worktree'));
  const stamps = new Map<string, string>();
  // A git that did not answer in time (AGENT_PROBE_TIMEOUT_MS) leaves the agent without those
  // facts this once; the next start asks again.
  const timedOut = id.timedOut ?? places.timedOut;
  if (timedOut) log.warn(`${cwd}: the agent starts without its git identity and places: ${timedOut}`);
  let keepable = !timedOut;
  for (const file of files) {
    const st = stat(file);
    stamps.set(file, stampOf(st));
    if (st && !st.isDirectory() && Number(st.mtimeNs / 1_000_000n) >= started - RACY_MS) keepable = false;
    if (st?.isFile() && st.size < 1_000_000 && /^\s*\[\s*include/im.test(fs.readFileSync(file, 'utf8')))
      keepable = false;
  }
  if (keepable) keep(stamps);
  return { identity: id.vars, places };
}

/** The system and global config files git reads in this environment. */
function configFiles(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? os.homedir();
  const files: string[] = [];
  if (!env.GIT_CONFIG_NOSYSTEM) files.push(env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig');
  if (env.GIT_CONFIG_GLOBAL) files.push(env.GIT_CONFIG_GLOBAL);
  else
    files.push(
      path.join(home, '.gitconfig'),
      path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'),
    );
  return files;
}

function stat(file: string): fs.BigIntStats | undefined {
  try {
    return fs.statSync(file, { bigint: true });
  } catch {
    return undefined;
  }
}

function stamp(file: string): string {
  return stampOf(stat(file));
}

/**
 * A file by inode, size and mtime. A folder (a checkout's .git, a local remote) is where
 * things are, not what they say, so it is stamped by its inode alone: its mtime moves with
 * every lock file git makes in it (any `git status` in the checkout), which would have every
 * start probe again.
 */
function stampOf(st: fs.BigIntStats | undefined): string {
  if (!st) return 'none';
  return st.isDirectory() ? `dir:${st.ino}` : `${st.ino}:${st.size}:${st.mtimeNs}`;
}
