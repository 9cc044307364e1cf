// Which ignored files reap may treat as regenerable. `git worktree remove` deletes every
// ignored file, under whatever rules are in force: a `.gitignore` the lane wrote and never
// committed (an untracked one holding `*` hides itself and everything beside it), the
// repository's shared info/exclude (svc's own review entries once lived there, hiding
// `review.md` in every worktree) and the user's core.excludesFile. Only the .gitignore
// files committed at HEAD say what the branch regenerates, so a file ignored now but not
// by them is work: reap saves it (--park) or refuses, never deletes it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import type { WorktreeInfo } from './worktreeInfo';

export const isIgnoreFile = (p: Buffer): boolean => p.toString('latin1') === '.gitignore' || p.toString('latin1').endsWith('/.gitignore');

/**
 * Untracked paths of `info.top` that the rules in force ignore but HEAD's committed
 * .gitignore files do not (folders end in `/`, as `ls-files --directory` gives them).
 * `indexFile` is the capture's index: what it already holds is not untracked.
 */
export async function ignoredOnlyByUncommittedRules(info: WorktreeInfo, head: string, indexFile: string, scratchDir: string, opts: GitEnv): Promise<Buffer[]> {
  const ignoredNow = await runGit(info.top, ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory', '-z'], { ...opts, extra: { GIT_INDEX_FILE: indexFile } });
  if (ignoredNow.stdout.length === 0) return [];
  const rules = await committedRulesTree(info, head, scratchDir, opts);
  const stillIgnored = await runGit(rules.workTree, ['-c', `core.excludesFile=${rules.noExcludes}`, 'check-ignore', '--no-index', '-z', '--stdin'], {
    ...opts,
    extra: { GIT_DIR: rules.gitDir, GIT_WORK_TREE: rules.workTree },
    input: ignoredNow.stdout,
    okCodes: [1],
  });
  const regenerable = new Set(splitNul(stillIgnored.stdout).map((p) => p.toString('hex')));
  return splitNul(ignoredNow.stdout).filter((p) => !regenerable.has(p.toString('hex')));
}

/**
 * A scratch tree holding only HEAD's .gitignore files, with an empty repository of its
 * own (no info/exclude) and a core.excludesFile that does not exist: `check-ignore` there
 * answers with the committed rules and nothing else.
 */
async function committedRulesTree(info: WorktreeInfo, head: string, scratchDir: string, opts: GitEnv): Promise<{ workTree: string; gitDir: string; noExcludes: string }> {
  const workTree = fs.mkdtempSync(path.join(scratchDir, 'committed-rules-'));
  const gitDir = `${workTree}.git`;
  const fromRepo = { ...opts, extra: { GIT_INDEX_FILE: `${workTree}.index`, GIT_DIR: info.gitDir, GIT_WORK_TREE: workTree } };
  await runGit(workTree, ['read-tree', head], fromRepo);
  const listed = await runGit(workTree, ['ls-files', '-z'], fromRepo);
  const ignoreFiles = splitNul(listed.stdout).filter(isIgnoreFile);
  if (ignoreFiles.length) {
    const input = Buffer.concat(ignoreFiles.flatMap((p) => [p, Buffer.from([0])]));
    await runGit(workTree, ['checkout-index', '--force', '-z', '--stdin'], { ...fromRepo, input });
  }
  await runGit(scratchDir, ['init', '--quiet', '--bare', '--template=', gitDir], opts);
  return { workTree, gitDir, noExcludes: path.join(scratchDir, 'no-excludes') };
}
