// Which ignored files reap may treat as regenerable. `git worktree remove` deletes every
// ignored file, under whatever rules are in force: a `.gitignore` the lane wrote and never
// committed (an untracked one holding `*` hides itself and everything beside it), the
// repository's shared info/exclude (svc's own review entries once lived there, hiding
// `review.md` in every worktree), the user's core.excludesFile — and a `.gitignore` the
// lane wrote AND committed (`*` committed on the lane's branch hides every new file as
// well as an uncommitted one does). Only the project's rules say what the project
// regenerates: the .gitignore files committed at the lane's base commit, the commit its
// worktree was created at. A file ignored now but not by them is work: reap saves it
// (--park) or refuses, never deletes it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { joinNul, runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import type { WorktreeInfo } from './worktreeInfo';

export const isIgnoreFile = (p: Buffer): boolean =>
  p.toString('latin1') === '.gitignore' || p.toString('latin1').endsWith('/.gitignore');

/**
 * The commit the worktree was created at: the first entry of its HEAD reflog (`git worktree
 * add` writes it, in the worktree's private folder, where the lane's own commands cannot
 * rewrite history by committing). Null when that reflog is gone or names no commit.
 */
export async function laneBase(info: WorktreeInfo, opts: GitEnv): Promise<string | null> {
  let first: string | undefined;
  try {
    const fd = fs.openSync(path.join(info.gitDir, 'logs', 'HEAD'), 'r');
    try {
      const buf = Buffer.alloc(512);
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      first = buf.subarray(0, n).toString('latin1').split('\n')[0];
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const sha = /^[0-9a-f]{40,64} ([0-9a-f]{40,64}) /.exec(first ?? '')?.[1];
  if (!sha || /^0+$/.test(sha)) return null;
  const ok = await runGit(info.top, ['rev-parse', '-q', '--verify', `${sha}^{commit}`], { ...opts, okCodes: [1] });
  return ok.code === 0 ? sha : null;
}

/**
 * Untracked paths of `info.top` that the rules in force ignore but the .gitignore files
 * committed at the lane's base commit do not (folders end in `/`, as `ls-files --directory`
 * gives them). With no base known, no rule counts as the project's: every ignored file is
 * work. `indexFile` is the capture's index: what it already holds is not untracked.
 */
export async function ignoredOnlyByUncommittedRules(
  info: WorktreeInfo,
  indexFile: string,
  scratchDir: string,
  opts: GitEnv,
): Promise<Buffer[]> {
  const ignoredNow = await runGit(
    info.top,
    ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'],
    { ...opts, extra: { GIT_INDEX_FILE: indexFile } },
  );
  if (ignoredNow.stdout.length === 0) return [];
  const base = await laneBase(info, opts);
  if (base === null) return splitNul(ignoredNow.stdout);
  const rules = await committedRulesTree(info, base, scratchDir, opts);
  const stillIgnored = await runGit(
    rules.workTree,
    ['-c', `core.excludesFile=${rules.noExcludes}`, 'check-ignore', '--no-index', '-z', '--stdin'],
    {
      ...opts,
      extra: { GIT_DIR: rules.gitDir, GIT_WORK_TREE: rules.workTree },
      input: ignoredNow.stdout,
      okCodes: [1],
    },
  );
  const regenerable = new Set(splitNul(stillIgnored.stdout).map((p) => p.toString('hex')));
  return splitNul(ignoredNow.stdout).filter((p) => !regenerable.has(p.toString('hex')));
}

/**
 * A scratch tree holding only the .gitignore files of commit `at`, with an empty repository of its
 * own (no info/exclude) and a core.excludesFile that does not exist: `check-ignore` there
 * answers with the committed rules and nothing else.
 */
async function committedRulesTree(
  info: WorktreeInfo,
  at: string,
  scratchDir: string,
  opts: GitEnv,
): Promise<{ workTree: string; gitDir: string; noExcludes: string }> {
  const workTree = fs.mkdtempSync(path.join(scratchDir, 'committed-rules-'));
  const gitDir = `${workTree}.git`;
  const fromRepo = {
    ...opts,
    extra: { GIT_INDEX_FILE: `${workTree}.index`, GIT_DIR: info.gitDir, GIT_WORK_TREE: workTree },
  };
  await runGit(workTree, ['read-tree', at], fromRepo);
  const listed = await runGit(workTree, ['ls-files', '-z'], fromRepo);
  const ignoreFiles = splitNul(listed.stdout).filter(isIgnoreFile);
  if (ignoreFiles.length) {
    const input = joinNul(ignoreFiles);
    await runGit(workTree, ['checkout-index', '--force', '-z', '--stdin'], { ...fromRepo, input });
  }
  await runGit(scratchDir, ['init', '--quiet', '--bare', '--template=', gitDir], opts);
  return { workTree, gitDir, noExcludes: path.join(scratchDir, 'no-excludes') };
}
