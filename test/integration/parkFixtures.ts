// Fixtures for the park and reap tests: a project repository whose base commit holds
// every kind of file a dirty state can start from, worktrees beside it in a lanes root,
// byte-path git helpers, and a git-independent snapshot of a worktree (what a user sees).
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, makeRepo } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

export interface LaneRepo {
  dir: string;
  origin: string;
  lanesRoot: string;
  base: string;
}

export const NON_UTF8 = Buffer.from([0x6c, 0xe9, 0xff, 0x2e, 0x74]);
export const BIG = 1_100_000;

/** Deterministic pseudo-random bytes (xorshift32), fast enough for megabytes per case. */
export function pseudoRandom(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed | 0 || 0x9e3779b9;
  for (let i = 0; i < length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.writeInt32LE(x | 0, Math.min(i, length - 4));
  }
  return out;
}

/** `git <args>` with NUL-separated literal paths on stdin (names need not be UTF-8). */
export function gitPaths(cwd: string, env: NodeJS.ProcessEnv, args: string[], paths: Buffer[]): number {
  const input = Buffer.concat(paths.flatMap((p) => [p, Buffer.from([0])]));
  const r = spawnSync('git', [...args, '--pathspec-from-file=-', '--pathspec-file-nul'], {
    cwd,
    env: { ...env, GIT_LITERAL_PATHSPECS: '1' },
    input,
  });
  return r.status ?? -1;
}

/** `git <args> -z --stdin` with NUL-separated paths (for commands without --pathspec-from-file, e.g. update-index). */
export function gitPathsStdin(cwd: string, env: NodeJS.ProcessEnv, args: string[], paths: Buffer[]): number {
  const input = Buffer.concat(paths.flatMap((p) => [p, Buffer.from([0])]));
  return spawnSync('git', [...args, '-z', '--stdin'], { cwd, env, input }).status ?? -1;
}

export const b = (s: string) => Buffer.from(s, 'utf8');
export const join = (dir: string, rel: Buffer) => Buffer.concat([b(dir + '/'), rel]);

/** A project with a lanes root and a base commit of text, binary, big, exec, empty, symlink and oddly named files. */
export function makeLaneRepo(s: Scratch): LaneRepo {
  const { dir, origin } = makeRepo(s);
  const write = (rel: Buffer | string, data: Buffer | string, mode = 0o644) => {
    const p = join(dir, typeof rel === 'string' ? b(rel) : rel);
    fs.mkdirSync(parentOf(p), { recursive: true });
    fs.writeFileSync(p, data, { mode });
    fs.chmodSync(p, mode);
  };
  fs.writeFileSync(path.join(dir, '.gitignore'), 'build/\n*.log\n');
  write('text.txt', 'one\ntwo\nthree\n');
  write('script.sh', '#!/bin/sh\necho hi\n', 0o755);
  write('bin.dat', pseudoRandom(7, 4096));
  write('big.bin', pseudoRandom(11, BIG));
  write('empty.txt', '');
  write('dir/nested/deep.txt', 'deep\n');
  write('dir/other.txt', 'other\n');
  write('with space.txt', 'spaced\n');
  write('ünïcødé.txt', 'unicode\n');
  write('new\nline.txt', 'newline\n');
  write(Buffer.concat([b('raw-'), NON_UTF8]), 'latin1 name\n');
  fs.symlinkSync('text.txt', path.join(dir, 'link'));
  fs.symlinkSync('dir', path.join(dir, 'dirlink'));
  git(dir, s.env, 'add', '-A');
  git(dir, s.env, 'commit', '--quiet', '-m', 'base: every kind of file');
  git(dir, s.env, 'push', '--quiet', 'origin', 'HEAD:main');
  const lanesRoot = `${dir}-lanes`;
  fs.mkdirSync(lanesRoot);
  return { dir, origin, lanesRoot, base: git(dir, s.env, 'rev-parse', 'HEAD') };
}

function parentOf(p: Buffer): Buffer {
  return p.subarray(0, p.lastIndexOf(0x2f));
}

export type Entry =
  | { type: 'file'; mode: string; sha256: string; size: number }
  | { type: 'symlink'; target: string }
  | { type: 'folder'; mode: string };

/** True for what the fixture's .gitignore ignores: a `build` folder anywhere, `*.log`. */
export function ignoredName(name: Buffer, isDir: boolean): boolean {
  const s = name.toString('latin1');
  return (isDir && s === 'build') || s.endsWith('.log');
}

/**
 * Every non-ignored file and symlink under `dir` (the worktree's `.git` file left out),
 * read from the file system without git: relative path (hex-free, escaped) → content
 * hash, size and permission bits, or link target. Folders are not work git can carry.
 */
export function snapshot(dir: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (rel: Buffer) => {
    const abs = rel.length ? join(dir, rel) : b(dir);
    for (const name of fs.readdirSync(abs, { encoding: 'buffer' })) {
      const childRel = rel.length ? Buffer.concat([rel, b('/'), name]) : name;
      if (!rel.length && name.toString('latin1') === '.git') continue;
      const st = fs.lstatSync(join(dir, childRel));
      if (ignoredName(name, st.isDirectory())) continue;
      const key = JSON.stringify(childRel.toString('latin1'));
      if (st.isDirectory()) {
        // A folder counts (with its permission bits) when it holds something recorded.
        const before = out.size;
        walk(childRel);
        if (out.size > before) out.set(key, { type: 'folder', mode: (st.mode & 0o7777).toString(8) });
      } else if (st.isSymbolicLink())
        out.set(key, {
          type: 'symlink',
          target: fs.readlinkSync(join(dir, childRel), { encoding: 'buffer' }).toString('latin1'),
        });
      else {
        const data = fs.readFileSync(join(dir, childRel));
        out.set(key, {
          type: 'file',
          mode: (st.mode & 0o7777).toString(8),
          sha256: crypto.createHash('sha256').update(data).digest('hex'),
          size: data.length,
        });
      }
    }
  };
  walk(Buffer.alloc(0));
  return out;
}

export const sorted = (m: Map<string, Entry>) => [...m.entries()].sort(([a], [b2]) => (a < b2 ? -1 : a > b2 ? 1 : 0));

/** Adds a worktree under the lanes root: on a new branch, or detached at `at`. */
export function addWorktree(
  repo: LaneRepo,
  env: NodeJS.ProcessEnv,
  name: string,
  branch: string | null,
  at = repo.base,
): string {
  const wt = path.join(repo.lanesRoot, name);
  if (branch === null) git(repo.dir, env, 'worktree', 'add', '--quiet', '--detach', wt, at);
  else git(repo.dir, env, 'worktree', 'add', '--quiet', '-b', branch, wt, at);
  return wt;
}

/** Test cleanup only: removes a worktree whatever it holds. */
export function forceRemoveWorktree(repo: LaneRepo, env: NodeJS.ProcessEnv, wt: string): void {
  spawnSync('git', ['worktree', 'remove', '--force', '--force', wt], { cwd: repo.dir, env });
  fs.rmSync(wt, { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune'], { cwd: repo.dir, env });
}

/** Runs a printed command line exactly as a user would paste it. */
export function sh(
  command: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The restore command exactly as the parked patch's header prints it (a JSON string). */
export function headerRestoreCommand(patchFile: string): string {
  const header = fs.readFileSync(patchFile, 'latin1').split('\ndiff --git ')[0];
  const line = /^restore: (".*")$/m.exec(header)?.[1];
  if (line === undefined) throw new Error(`no restore line in the header of ${patchFile}`);
  return JSON.parse(Buffer.from(line, 'latin1').toString('utf8')) as string;
}
