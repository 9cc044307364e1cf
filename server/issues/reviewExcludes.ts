// The review pipeline's files (`.svc/` and `review.md`) must stay out of an issue's work,
// and only there. Listed in the repository's shared info/exclude they were invisible in
// EVERY worktree of the repository, so a lane's own review.md escaped `git status` and
// reap deleted it. They are now listed in a per-worktree excludes file: git's
// `extensions.worktreeConfig` lets each worktree have its own `core.excludesFile`
// (git reads no per-worktree info/exclude). That setting replaces the user's global
// excludes file in the workspace, so the global file's rules are copied in with svc's.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git } from '../git/git';
import { logger } from '../util/log';

const log = logger('issues');

export const EXCLUDED = ['.svc/', 'review.md'];
const MARKER = '# svc: review files and the pipeline journal are never part of the work';

/** Lists svc's review files as ignored in the worktree `workspace` only. */
export async function excludeReviewFilesIn(workspace: string): Promise<void> {
  const common = await commonDir(workspace);
  await enableWorktreeConfig(common);
  const own = path.resolve(workspace, (await git(workspace, ['rev-parse', '--git-dir'])).trim());
  const file = path.join(own, 'svc-exclude');
  const global = await globalExcludes(workspace);
  const inherited =
    global === ''
      ? ''
      : `# copied from the user's global excludes file (core.excludesFile replaces it here)\n${global}${global.endsWith('\n') ? '' : '\n'}`;
  fs.writeFileSync(file, `${inherited}${MARKER}\n${EXCLUDED.join('\n')}\n`);
  await git(workspace, ['config', '--worktree', 'core.excludesFile', file]);
}

/**
 * Removes the block svc once appended to the shared info/exclude (the marker line and the
 * entries after it), leaving every other line as it was. Call it once each issue
 * workspace has its own excludes, so `.svc/` never shows in one.
 */
export async function removeSharedReviewExcludes(repo: string): Promise<boolean> {
  const file = path.join(await commonDir(repo), 'info', 'exclude');
  if (!fs.existsSync(file)) return false;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== MARKER) {
      kept.push(lines[i]);
      continue;
    }
    while (i + 1 < lines.length && EXCLUDED.includes(lines[i + 1].trim())) i++;
  }
  if (kept.length === lines.length) return false;
  fs.writeFileSync(file, kept.join('\n'));
  return true;
}

async function commonDir(dir: string): Promise<string> {
  return path.resolve(dir, (await git(dir, ['rev-parse', '--git-common-dir'])).trim());
}

/**
 * Turns on per-worktree config as git documents it: core.bare and core.worktree, which
 * would then apply to every worktree, move from the shared config to the main worktree's.
 */
async function enableWorktreeConfig(common: string): Promise<void> {
  const shared = path.join(common, 'config');
  const on = (
    await git(common, ['config', '--file', shared, '--type=bool', '--get', 'extensions.worktreeConfig']).catch(() => '')
  ).trim();
  if (on === 'true') return;
  const mainOnly = path.join(common, 'config.worktree');
  for (const key of ['core.worktree', 'core.bare']) {
    const value = await git(common, ['config', '--file', shared, '--get', key]).catch(() => null);
    if (value === null) continue;
    if (key === 'core.bare' && value.trim() !== 'true') continue; // false is right for every worktree
    await git(common, ['config', '--file', mainOnly, key, value.trim()]);
    await git(common, ['config', '--file', shared, '--unset', key]);
  }
  await git(common, ['config', '--file', shared, 'extensions.worktreeConfig', 'true']);
}

/** The user's global excludes file's text: core.excludesFile, else git's XDG default. */
async function globalExcludes(dir: string): Promise<string> {
  const configured = (
    await git(dir, ['config', '--global', '--path', '--get', 'core.excludesFile']).catch(() => '')
  ).trim();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(process.env.HOME || os.homedir(), '.config');
  const file = configured || path.join(xdg, 'git', 'ignore');
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * For repositories set up by an earlier svc: gives every existing issue workspace its
 * own excludes, then takes svc's block out of the shared info/exclude. A repository
 * whose workspace could not be set up keeps its shared block (removing it would show
 * `.svc/` in that workspace as work to commit).
 */
export async function migrateReviewExcludes(workspaces: { repo: string; workspace: string }[]): Promise<void> {
  const failed = new Set<string>();
  for (const w of workspaces) {
    if (!fs.existsSync(w.workspace)) continue;
    try {
      await excludeReviewFilesIn(w.workspace);
    } catch (e) {
      failed.add(w.repo);
      log.warn(
        `review files not excluded in ${w.workspace}; svc's shared info/exclude entries are kept for ${w.repo}`,
        e,
      );
    }
  }
  for (const repo of new Set(workspaces.map((w) => w.repo))) {
    if (failed.has(repo) || !fs.existsSync(repo)) continue;
    try {
      if (await removeSharedReviewExcludes(repo))
        log.info(`moved svc's review entries out of the shared info/exclude of ${repo}`);
    } catch (e) {
      log.warn(`svc's review entries could not be removed from the shared info/exclude of ${repo}`, e);
    }
  }
}
