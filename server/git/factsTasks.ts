// The tasks a facts worker runs (factsWorkerMain.ts), each a pure function of the files it
// reads: a re-check of a kept clean answer, the snapshot a clean answer will depend on, and
// an index's content digest. Every one reads a number of files that grows with the
// repository (38,000 lstat calls for a 38,000-file lane), which is why none runs on the
// daemon's thread (factsWorkers.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { digestOf } from './indexContent';
import { configSignature, dirsSignature, recheckKept, worktreeDirs } from './worktreeRecheck';
import type { KeptClean, Rechecked } from './worktreeRecheck';

/** What a clean answer depends on besides HEAD and the index (taken before git reads the worktree). */
export type Snapshot = Omit<KeptClean, 'head' | 'indexDigest'>;

export type FactsTask =
  | { kind: 'recheck'; dir: string; kept: KeptClean }
  | { kind: 'snapshot'; dir: string; gitDir: string }
  | { kind: 'digest'; file: string; hashBytes: number };

/** A re-check's answer: the worktree's git dir (none: not a worktree), and whether the kept answer holds. */
export interface RecheckResult {
  gitDir: string | undefined;
  answer: Rechecked | undefined;
}

export interface FactsTaskMessage {
  id: number;
  task: FactsTask;
}

export type FactsTaskResult<T extends FactsTask> = T extends { kind: 'recheck' }
  ? RecheckResult
  : T extends { kind: 'snapshot' }
    ? Snapshot | undefined
    : string | undefined;

export function runFactsTask(task: FactsTask): RecheckResult | Snapshot | string | undefined {
  switch (task.kind) {
    case 'recheck': {
      const gitDir = worktreeGitDir(task.dir);
      return { gitDir, answer: gitDir ? recheckKept(task.dir, gitDir, task.kept, new Map()) : undefined };
    }
    case 'snapshot':
      return snapshot(task.dir, task.gitDir);
    case 'digest':
      return digestOfFile(task.file, task.hashBytes);
  }
}

function snapshot(dir: string, gitDir: string): Snapshot | undefined {
  const dirs = worktreeDirs(dir);
  const dirsSig = dirs && dirsSignature(dir, dirs);
  return dirs && dirsSig ? { dirs, dirsSig, configSig: configSignature(gitDir) } : undefined;
}

function digestOfFile(file: string, hashBytes: number): string | undefined {
  try {
    return digestOf(fs.readFileSync(file), hashBytes);
  } catch {
    return undefined; // unreadable, truncated or malformed: whoever reads it next recounts
  }
}

/** The git dir of a linked worktree (`.git` is a file `gitdir: …`), or of a main checkout. */
export function worktreeGitDir(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  try {
    const st = fs.statSync(dotGit);
    if (st.isDirectory()) return dotGit;
    const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(dir, m[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}
