// Index bits that make git stop looking at a file: `assume-unchanged` (git trusts the
// index and never reads the file) and `skip-worktree` (git treats the file as not
// there). An edit under either bit is invisible to `git status` and to the never-forced
// `git worktree remove`, which would then delete it. Reap clears the bits in a COPY of
// the index and lets git compare again, so hidden edits become ordinary changes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { joinNul, runGit, splitNul } from '../git/gitExec';
import type { GitEnv } from '../git/gitExec';

export type HidingBit = 'assume-unchanged' | 'skip-worktree';

/** Index entries whose bits hide them, keyed by the path's hex (names are bytes). */
export type HiddenByBits = Map<string, { path: Buffer; bits: HidingBit[] }>;

/**
 * Clears the hiding bits in `indexFile` (a scratch copy) and returns what was cleared.
 * A skip-worktree entry whose file is absent is a sparse checkout doing its job when one
 * is on: nothing on disk can be lost there, so it keeps its bit (clearing it would read
 * as a deletion). Without a sparse checkout the absence is the user's deletion, and is work.
 */
export async function clearHidingBits(top: string, indexFile: string, opts: GitEnv): Promise<HiddenByBits> {
  const call = { ...opts, extra: { GIT_INDEX_FILE: indexFile } };
  const listed = await runGit(top, ['ls-files', '-v', '-z'], call);
  const found: HiddenByBits = new Map();
  const sparse = await sparseCheckoutOn(top, opts);
  for (const field of splitNul(listed.stdout)) {
    // `<tag> <path>`: lower case marks assume-unchanged; S (or s) marks skip-worktree.
    const tag = String.fromCharCode(field[0]);
    const rel = field.subarray(2);
    const bits: HidingBit[] = [];
    if (tag !== tag.toUpperCase()) bits.push('assume-unchanged');
    if (tag.toUpperCase() === 'S' && (!sparse || presentOnDisk(top, rel))) bits.push('skip-worktree');
    if (bits.length) found.set(rel.toString('hex'), { path: rel, bits });
  }
  await clearBits(top, [...found.values()], call);
  return found;
}

/** Clears the given entries' bits in the index `call` names (the real one when it names none). */
export async function clearBits(
  top: string,
  entries: { path: Buffer; bits: HidingBit[] }[],
  call: GitEnv & { extra?: Record<string, string> },
): Promise<void> {
  // update-index applies one flag option per run, so each bit gets its own.
  for (const bit of ['assume-unchanged', 'skip-worktree'] as const) {
    const paths = entries.filter((e) => e.bits.includes(bit)).map((e) => e.path);
    if (paths.length === 0) continue;
    const input = joinNul(paths);
    await runGit(top, ['update-index', `--no-${bit}`, '-z', '--stdin'], { ...call, input });
  }
}

export async function sparseCheckoutOn(top: string, opts: GitEnv): Promise<boolean> {
  const r = await runGit(top, ['config', '--bool', 'core.sparseCheckout'], { ...opts, okCodes: [1] });
  return r.stdout.toString().trim() === 'true';
}

function presentOnDisk(top: string, rel: Buffer): boolean {
  try {
    fs.lstatSync(Buffer.concat([Buffer.from(top + path.sep), rel]));
    return true;
  } catch {
    return false;
  }
}
