// A local lane's own git state (config.yaml `lanes.git: own`): a bare repository of its own
// at `<lanes root>/.git-lanes/<lane dir name>.git` (0700; not under SVC_HOME, which the
// sandbox hides), whose objects/info/alternates borrows the project's object store, and the
// lane's directory a worktree of it. The sandbox (sandboxPlan.ts) then binds writable only
// this repository's objects, refs and logs and the worktree's own admin folder: the person's
// repository is read-only inside, so a lane can lose only its own refs and objects. Its
// branches reach the person's repository only through the daemon (laneGitMirror.ts).
//
// What the lane repository is given, all written by the daemon before the agent starts and
// read-only inside: the alternates file, a config naming the project's remotes (so a push
// still goes through svc's `pushInsteadOf` of the same URL), the branch's upstream, the
// project's hooks (core.hooksPath; they run inside the sandbox and may write only the lane's
// own files), and a packed-refs snapshot of the project's branches, remote-tracking refs and
// tags (so `origin/main` and the like name what they name in the person's checkout).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitPlaces } from '../git/gitPlaces';
import { git } from '../git/git';
import { commonGitDir } from '../git/plantedLinks';
import { CONFIG_LINK, SVC_CONFIG_DIR } from '../sandbox/privateGitConfig';

/** The folder of the lane repositories under a lanes root. */
export const LANE_REPOS_DIR = '.git-lanes';

/** Where the lane repository of the lane directory `dir` lives. */
export function laneRepoPath(dir: string): string {
  return path.join(path.dirname(dir), LANE_REPOS_DIR, `${path.basename(dir)}.git`);
}

/**
 * The lane repository of the lane directory `dir`, when it is a worktree of one (read from
 * its `.git` file and `commondir`, which the sandbox keeps read-only); undefined for a
 * worktree of the person's repository (`lanes.git: shared`) or no worktree at all.
 */
export function ownLaneRepo(dir: string): string | undefined {
  const common = commonGitDir(dir);
  if (!common) return undefined;
  const want = laneRepoPath(dir);
  return path.resolve(common) === want || safeReal(common) === safeReal(want) ? want : undefined;
}

/** What ownLaneRepo found for each lane directory: a lane's layout never changes once it is made. */
const layouts = new Map<string, string | null>();
const LAYOUTS_MAX = 8192;

/**
 * The repository a lane directory is a worktree of, for reads that batch per repository
 * (the git facts of a list): its own repository (lanes.git: own) or else `project`. Kept per
 * directory once found, so a list of many lanes reads no file for it the second time.
 */
export function laneFactsRepo(dir: string, project: string): string {
  let own = layouts.get(dir);
  if (own === undefined) {
    own = ownLaneRepo(dir) ?? null;
    // A lane not made yet (its worktree still being added) is asked again next time.
    if (own !== null || fs.existsSync(path.join(dir, '.git'))) {
      if (layouts.size >= LAYOUTS_MAX) layouts.delete(layouts.keys().next().value!);
      layouts.set(dir, own);
    }
  }
  return own ?? project;
}

/** Forgets what laneFactsRepo kept for `dir` (its lane was reaped: a later lane there may be made otherwise). */
export function forgetLaneLayout(dir: string): void {
  layouts.delete(dir);
}

function safeReal(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}

/** Local config keys of the project that the lane repository does not take (its own layout, or written here). */
const NOT_COPIED = /^(core\.(bare|worktree|repositoryformatversion|logallrefupdates|hookspath)|extensions\.|branch\.)/i;

/** What the launch read ahead of the lane repository (the agent's git places of the project). */
export interface LaneRepoKnown {
  /** Whether core.hooksPath is set for the project in any config; undefined: not known, git is asked. */
  hooksPathSet?: boolean;
}

/**
 * Makes the lane repository for a worktree of `project` (a checkout). `branch`: the lane's
 * branch, whose upstream (origin, same name) is written in its config. Refuses, as git's
 * own error, a repository that exists already (a leftover of a lane whose reap did not
 * finish: never overwritten).
 *
 * Two git runs in the project (its local config, its refs), no more: each spawn holds the
 * daemon's thread (~35 ms each at load 11 in bench/launch.bench.ts's profile), and the
 * launch waits for them before its `git worktree add`. So the object format is read from
 * the local config (extensions.objectformat), core.hooksPath is asked only when the agent's
 * git places say it is set, and the bare repository is written here as `git init --bare
 * --template=` writes it (HEAD, config, objects/, refs/): the config's filesystem keys git
 * init would probe are the project's, copied after it, as they always overrode its own.
 */
export async function createLaneRepo(
  project: string,
  laneRepo: string,
  branch: string | null,
  known: LaneRepoKnown = {},
): Promise<void> {
  const common = commonGitDir(project);
  if (!common) throw new Error(`${project} is not a git checkout svc can read`);
  const commonReal = fs.realpathSync(common);
  fs.mkdirSync(path.dirname(laneRepo), { recursive: true, mode: 0o700 });
  // mkdir (not recursive) is the lock: a leftover is never reused.
  fs.mkdirSync(laneRepo, { mode: 0o700 });
  const [config, refs, hooksPath] = await Promise.all([
    git(project, ['config', '--local', '--list', '-z']).catch(() => ''),
    git(project, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/remotes/', 'refs/tags/']),
    known.hooksPathSet === false ? '' : git(project, ['config', '--get', 'core.hooksPath']).catch(() => ''),
  ]);
  const entries = configEntries(config);
  const format = entries.find((e) => e.key.toLowerCase() === 'extensions.objectformat')?.value.toLowerCase() ?? 'sha1';
  const core = writeBareSkeleton(laneRepo, format);
  fs.mkdirSync(path.join(laneRepo, 'logs'));
  // git-lfs's folder, where the project has one: its hooks write there on a commit or push
  // (the sandbox binds it writable); the lane's new objects are copied back at reap (laneLfsObjects.ts).
  if (fs.existsSync(path.join(commonReal, 'lfs'))) fs.mkdirSync(path.join(laneRepo, 'lfs'));
  fs.writeFileSync(path.join(laneRepo, 'objects', 'info', 'alternates'), `${path.join(commonReal, 'objects')}\n`);
  // Sorted already (for-each-ref's order); no peeled lines, so git peels tags itself.
  fs.writeFileSync(path.join(laneRepo, 'packed-refs'), `# pack-refs with: sorted \n${refs}`);
  const lines: string[] = [];
  for (const { key, value } of entries) if (!NOT_COPIED.test(key)) lines.push(configLine(key, value));
  // Reflogs as in a checkout: reap keeps commits only a reflog holds (privateCommits.ts).
  lines.push(configLine('core.logAllRefUpdates', 'true'));
  // The project's hooks (git-lfs, husky), read-only inside: a relative path names the worktree's own folder, as in the project.
  lines.push(configLine('core.hooksPath', hooksPath.trim() || path.join(commonReal, 'hooks')));
  if (branch) {
    lines.push(configLine(`branch.${branch}.remote`, 'origin'));
    lines.push(configLine(`branch.${branch}.merge`, `refs/heads/${branch}`));
  }
  // The config every git outside the sandbox reads, behind a link git follows when it writes
  // one: inside, the lane's git writes a copy of its own instead (privateGitConfig.ts).
  const own = path.join(laneRepo, SVC_CONFIG_DIR);
  fs.mkdirSync(own, { mode: 0o700 });
  fs.writeFileSync(path.join(own, 'config'), core + lines.join(''), { flag: 'wx', mode: 0o600 });
  fs.symlinkSync(CONFIG_LINK, path.join(laneRepo, 'config'));
}

/** The entries of `git config --list -z` (a key alone is a boolean true). */
function configEntries(list: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const entry of list.split('\0')) {
    const nl = entry.indexOf('\n');
    const key = nl < 0 ? entry : entry.slice(0, nl);
    if (key) out.push({ key, value: nl < 0 ? 'true' : entry.slice(nl + 1) });
  }
  return out;
}

/**
 * What `git init --bare --quiet --template= --object-format=<format>` makes in the empty
 * folder `repo` but its config, which is returned: a HEAD (the bare repository's own, which
 * no lane uses: its worktree has its own) and the object and ref folders; a config saying
 * bare and the format.
 */
function writeBareSkeleton(repo: string, format: string): string {
  for (const dir of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags'])
    fs.mkdirSync(path.join(repo, dir), { recursive: true });
  fs.writeFileSync(path.join(repo, 'HEAD'), 'ref: refs/heads/main\n', { flag: 'wx' });
  const v1 = format !== 'sha1';
  const core = `[core]\n\trepositoryformatversion = ${v1 ? 1 : 0}\n\tfilemode = true\n\tbare = true\n`;
  return v1 ? `${core}[extensions]\n\tobjectformat = ${format}\n` : core;
}

/** One `[section "sub"] name = "value"` entry of a git config file (repeated sections are git's own form). */
function configLine(key: string, value: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first);
  const name = key.slice(last + 1);
  const sub = first === last ? '' : ` "${quote(key.slice(first + 1, last))}"`;
  return `[${section}${sub}]\n\t${name} = "${quote(value)}"\n`;
}

const quote = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');

/**
 * The git places of a worktree of the lane repository at `dir`, from those read ahead in the
 * project's checkout (the lane's start reads them while the worktree is made): the same
 * remotes (its config names the project's), its own common and admin folders, and the hooks
 * its config points at. The sandbox binds what these name (sandboxPlan.ts).
 */
export function laneRepoPlaces(places: GitPlaces, dir: string): GitPlaces {
  const laneRepo = laneRepoPath(dir);
  const hooksPath = places.hooksPath ?? (places.commonDir ? path.join(places.commonDir, 'hooks') : undefined);
  return {
    ...places,
    commonDir: laneRepo,
    gitDir: path.join(laneRepo, 'worktrees', path.basename(dir)),
    ...(hooksPath ? { hooksPath } : {}),
  };
}

/** Removes a lane repository once no worktree of it is left and its refs are mirrored (reap). */
export function removeLaneRepo(laneRepo: string): void {
  fs.rmSync(laneRepo, { recursive: true, force: true });
}
