// Git on the local host's remote: a bare repository read and updated with the git CLI,
// never through anyone's checkout. User values never reach a place where git could
// read an option: names are checked with check-ref-format and follow --end-of-options.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnGit } from '../../git/gitExec';
import {
  badBranchError,
  baseMissingError,
  baseMovedError,
  mergeConflictError,
  nothingToMergeError,
} from '../codehostRefusals';

interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function gitRun(gitDir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<GitResult> {
  const extra = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  // A git that cannot start rejects (git itself missing); any exit is an answer.
  const r = await spawnGit(gitDir, [`--git-dir=${gitDir}`, ...args], { extra });
  return { code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr };
}

async function gitOut(gitDir: string, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await gitRun(gitDir, args, env);
  if (r.code !== 0) throw new Error(`git ${args[0]} failed in ${gitDir}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

export function isBareRepo(dir: string): boolean {
  return (
    fs.existsSync(path.join(dir, 'HEAD')) &&
    fs.existsSync(path.join(dir, 'objects')) &&
    fs.existsSync(path.join(dir, 'refs'))
  );
}

export async function checkBranchName(gitDir: string, name: string): Promise<void> {
  if (name.startsWith('-') || /[\0\n\r]/.test(name)) throw badBranchError(name);
  const r = await gitRun(gitDir, ['check-ref-format', '--branch', name]);
  if (r.code !== 0) throw badBranchError(name);
}

/** Every branch of the remote and its commit. */
export async function readHeads(gitDir: string): Promise<Map<string, string>> {
  const out = await gitOut(gitDir, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']);
  const heads = new Map<string, string>();
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]+) refs\/heads\/(.+)$/.exec(line);
    if (m) heads.set(m[2], m[1]);
  }
  return heads;
}

export async function branchSha(gitDir: string, branch: string): Promise<string | null> {
  const r = await gitRun(gitDir, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `refs/heads/${branch}^{commit}`,
  ]);
  return r.code === 0 ? r.stdout.trim() : null;
}

export async function isCommit(gitDir: string, sha: string): Promise<boolean> {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha)) return false;
  return (await gitRun(gitDir, ['cat-file', '-e', '--end-of-options', `${sha}^{commit}`])).code === 0;
}

async function isAncestor(gitDir: string, a: string, b: string): Promise<boolean> {
  return (await gitRun(gitDir, ['merge-base', '--is-ancestor', '--end-of-options', a, b])).code === 0;
}

export interface MergeInput {
  base: string;
  head: string;
  message: string;
  /** Author and committer of a merge commit. */
  identity: { name: string; email: string };
}

/**
 * Merges `head` into branch `base` inside the bare repository: a fast-forward when the
 * base is an ancestor, else a merge commit made with `merge-tree --write-tree` (no
 * worktree at all). The base ref is moved with a compare-and-swap, so a concurrent push
 * to the base is refused rather than overwritten.
 */
export async function mergeInto(
  gitDir: string,
  m: MergeInput,
): Promise<{ sha: string; method: 'fast-forward' | 'merge' }> {
  const baseSha = await branchSha(gitDir, m.base);
  if (!baseSha) throw baseMissingError(m.base);
  if (await isAncestor(gitDir, m.head, baseSha)) throw nothingToMergeError(m.head, m.base);
  let sha: string;
  let method: 'fast-forward' | 'merge';
  if (await isAncestor(gitDir, baseSha, m.head)) {
    sha = m.head;
    method = 'fast-forward';
  } else {
    const tree = await gitRun(gitDir, [
      'merge-tree',
      '--write-tree',
      '--name-only',
      '--end-of-options',
      baseSha,
      m.head,
    ]);
    if (tree.code === 1) {
      const files = tree.stdout.split('\n\n')[0].split('\n').slice(1).filter(Boolean);
      throw mergeConflictError(m.base, files);
    }
    if (tree.code !== 0) throw new Error(`git merge-tree failed in ${gitDir}: ${tree.stderr.trim()}`);
    const treeSha = tree.stdout.split('\n')[0].trim();
    const who = {
      GIT_AUTHOR_NAME: m.identity.name,
      GIT_AUTHOR_EMAIL: m.identity.email,
      GIT_COMMITTER_NAME: m.identity.name,
      GIT_COMMITTER_EMAIL: m.identity.email,
    };
    sha = await gitOut(gitDir, ['commit-tree', treeSha, '-p', baseSha, '-p', m.head, '-m', m.message], who);
    method = 'merge';
  }
  const moved = await gitRun(gitDir, [
    'update-ref',
    '-m',
    `svc: ${m.message.split('\n')[0]}`,
    `refs/heads/${m.base}`,
    sha,
    baseSha,
  ]);
  if (moved.code !== 0) throw baseMovedError(m.base);
  return { sha, method };
}
