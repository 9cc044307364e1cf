// What every agent start needs from git: the user's identity (gitIdentity.ts) and where the
// repository and its local remotes live (server/git/gitPlaces.ts). The probes run as child
// processes at once, never synchronously on the daemon's loop, and their answer is kept
// per working directory for as long as every config file git read it from is unchanged,
// so the second conversation in a folder (the five reviewers of a run, a project's next
// conversation) starts without running git at all. A config with an include is not kept
// (what it includes is not watched); nor is one written in the last seconds (an edit in
// the same clock tick as its stamp would go unseen), as git does with racily clean files.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logger } from '../util/log';
import { gitIdentity } from './gitIdentity';
import { withoutBranchSections } from '../git/branchSections';
import { gitPlaces } from '../git/gitPlaces';
import type { GitPlaces } from '../git/gitPlaces';

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
  /** The probe ended and its answer may not be kept: a start asking now probes again. */
  unkept?: boolean;
}

const log = logger('git-facts');
const MAX_KEPT = 500;
const RACY_MS = 2000;
/** How far a file's mtime may lag the clock the probe read (the kernel stamps files with a coarse clock). */
const WRITE_CLOCK_MARGIN_MS = 50;
const kept = new Map<string, Kept>();

export function agentGitFacts(cwd: string, env: NodeJS.ProcessEnv): Promise<AgentGitFacts> {
  const k = kept.get(cwd);
  if (k && !k.unkept && (!k.stamps || [...k.stamps].every(([file, st]) => stampLike(file, st) === st))) return k.facts;
  const entry: Kept = {
    facts: probe(cwd, env, (stamps) => (stamps ? (entry.stamps = stamps) : (entry.unkept = true))),
  };
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
  keep: (stamps: Map<string, string> | undefined) => void,
): Promise<AgentGitFacts> {
  const started = Date.now();
  // The repository config as it is before git reads it (where it can be found without git).
  const guessed = repoConfigOf(cwd);
  const before = guessed ? contentStamp(guessed) : undefined;
  const [id, places] = await Promise.all([gitIdentity(cwd, env), gitPlaces(cwd, env)]);
  // A git that did not answer in time (AGENT_PROBE_TIMEOUT_MS) leaves the agent without those
  // facts this once; the next start asks again.
  const timedOut = id.timedOut ?? places.timedOut;
  if (timedOut) log.warn(`${cwd}: the agent starts without its git identity and places: ${timedOut}`);
  let keepable = !timedOut;
  const files = new Set([
    ...configFiles(env),
    path.join(cwd, '.git'),
    ...id.origins.map((o) => path.resolve(cwd, o)),
    ...places.localRemotes,
  ]);
  // The repository's config is judged by what it says, not by its stamp: every lane launch
  // writes its branch's upstream there, and that would have the next launch probe again.
  const repoConfig = places.commonDir ? path.join(places.commonDir, 'config') : undefined;
  if (places.gitDir) files.add(path.join(places.gitDir, 'config.worktree'));
  const stamps = new Map<string, string>();
  if (repoConfig) {
    // Named by the identity's origins too (`.git/config`): stamped here, by content, only.
    const real = realOr(repoConfig);
    for (const f of files) if (path.basename(f) === 'config' && realOr(f) === real) files.delete(f);
    const content = contentStamp(repoConfig);
    stamps.set(repoConfig, content.stamp);
    // Changed while the probe ran: git may have read what was there before, so the answer is
    // not kept. Saying the same before and after is enough (a branch's upstream written by
    // the launch the probe runs for is no change); where the file was not known before, any
    // write since the probe started counts (the margin covers the file clock's coarser tick).
    const sameBefore = before !== undefined && realOr(guessed!) === real && before.stamp === content.stamp;
    const during = !sameBefore && content.mtimeMs !== undefined && content.mtimeMs >= started - WRITE_CLOCK_MARGIN_MS;
    if (content.stamp === UNREADABLE || content.include || during) keepable = false;
  }
  for (const file of files) {
    const st = stat(file);
    stamps.set(file, stampOf(st));
    if (st && !st.isDirectory() && Number(st.mtimeNs / 1_000_000n) >= started - RACY_MS) keepable = false;
    if (st?.isFile() && st.size < 1_000_000 && /^\s*\[\s*include/im.test(fs.readFileSync(file, 'utf8')))
      keepable = false;
  }
  keep(keepable ? stamps : undefined);
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

/** The repository config of the checkout or worktree at `cwd`, read from its `.git` without git; undefined when unsure. */
function repoConfigOf(cwd: string): string | undefined {
  try {
    const dotGit = path.join(cwd, '.git');
    const st = fs.statSync(dotGit);
    const m = st.isFile() ? /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8')) : undefined;
    const gitDir = st.isDirectory() ? dotGit : m ? path.resolve(cwd, m[1].trim()) : undefined;
    if (!gitDir) return undefined;
    let common = gitDir;
    try {
      common = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
    } catch {
      // no commondir file: the git dir is the common dir
    }
    return path.join(common, 'config');
  } catch {
    return undefined;
  }
}

function realOr(file: string): string {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return path.resolve(file);
  }
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

const UNREADABLE = 'content:unreadable';

/** A file stamped as `kept` was: by its content (contentStamp) or by its stat data. */
function stampLike(file: string, kept: string): string {
  return kept.startsWith('content:') ? contentStamp(file).stamp : stamp(file);
}

/**
 * The repository config by what it says, leaving out the sections of branches (whose keys
 * say nothing the agent's facts hold: identity, git dirs, remotes, hooks). A section is left
 * out only when its header stands alone on its line, `[branch "<name>"]`, and no line of the
 * file is continued (a value ending in a backslash), so nothing else can hide inside one.
 * Also its mtime and whether it includes another file (then it is never kept).
 */
function contentStamp(file: string): { stamp: string; mtimeMs?: number; include?: boolean } {
  let text: string;
  let mtimeMs: number;
  try {
    // Read, then stat: a write before the read shows in the mtime; one after it, in the content next time.
    text = fs.readFileSync(file, 'utf8');
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch (e) {
    return { stamp: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'content:none' : UNREADABLE };
  }
  // Uncertain where sections end (a continued line): the whole text counts.
  const kept = withoutBranchSections(text) ?? text;
  return {
    stamp: `content:${createHash('sha1').update(kept).digest('hex')}`,
    mtimeMs,
    include: /^\s*\[\s*include/im.test(text),
  };
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
