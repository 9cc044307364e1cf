// Proof that a parked patch carries the work: apply the file as written on disk to a
// scratch index holding HEAD and compare the resulting tree with the captured one. Tree
// ids cover every path, byte and mode (exec bit, symlink, type), so equal ids mean the
// patch reproduces exactly what git saw in the worktree.
import * as path from 'node:path';
import { runGit } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';
import { STRIP } from './patchFormat';

export interface VerifyInput extends GitEnv {
  /** Top of the worktree (git runs there; its own index and files are not touched). */
  top: string;
  head: string;
  /** Tree id of the working state the patch must reproduce. */
  expectedTree: string;
  patchFile: string;
  /** A private folder for the scratch index. */
  scratchDir: string;
}

export type VerifyOutcome = { ok: true } | { ok: false; detail: string };

/** Park takes the verifier as a parameter, so a failing one can be injected. */
export type PatchVerifier = (input: VerifyInput) => Promise<VerifyOutcome>;

export const verifyPatch: PatchVerifier = async (input) => {
  const call = { env: input.env, extra: { GIT_INDEX_FILE: path.join(input.scratchDir, 'verify.index') } };
  await runGit(input.top, ['read-tree', input.head], call);
  const applied = await runGit(input.top, ['apply', '--cached', `-p${STRIP}`, '--whitespace=nowarn', input.patchFile], {
    ...call,
    okCodes: [1, 128],
  });
  if (applied.code !== 0) return { ok: false, detail: `git apply: ${firstLine(applied.stderr)}` };
  const tree = (await runGit(input.top, ['write-tree'], call)).stdout.toString('utf8').trim();
  if (tree === input.expectedTree) return { ok: true };
  const diff = await runGit(
    input.top,
    ['diff-tree', '-r', '--name-status', '--no-renames', input.expectedTree, tree],
    input,
  );
  const paths = diff.stdout.toString('utf8').trim().split('\n').slice(0, 5).join('; ');
  return { ok: false, detail: `tree ${tree} differs from the work ${input.expectedTree}: ${paths}` };
};

function firstLine(s: string): string {
  return s.trim().split('\n')[0] ?? '';
}
