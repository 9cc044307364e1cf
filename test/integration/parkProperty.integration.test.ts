// The proof that reap --park never loses work (docs/spec.md: no code path deletes a user's work): random dirty worktrees of
// every kind — modified, added, deleted, renamed (staged and not), exec-bit changes,
// binary, empty and >1 MB files, names with spaces, newlines, non-ASCII and non-UTF-8
// bytes, nested untracked folders, symlinks (added, retargeted, type changes), files
// becoming folders and back, staged-then-edited files, ignored files, edits hidden by
// assume-unchanged or skip-worktree, .gitignore files the lane wrote (hiding themselves),
// svc's old review entries in the shared info/exclude, CRLF work under a committed
// `* text=auto`, permission bits git does not record (0600, 0000, 0444…, and folders' bits),
// and the less common ways git holds work: a commit left on a detached HEAD (only the HEAD
// reflog holds it), a commit only a per-worktree ref holds, a merge in progress (clean, or
// with conflicts one of two resolved), a cherry-pick or revert stopped on a conflict, an
// interactive rebase stopped at a `break`, a `.git` file in a subfolder, a writer outside
// the lane holding a file of it open, a program of the lane's run from elsewhere (mapped,
// not open), a `.gitignore` of `*` the lane committed itself, a nested repository in an
// ignored folder. Each case
// runs the whole reap sequence, plain or --park, and either
// - it is refused, for a reason the case holds (a nested .git, an operation in progress,
//   a process inside, dirty work without --park), and nothing changed: every file, git
//   status, HEAD, the conflicts, MERGE_HEAD, CHERRY_PICK_HEAD, REVERT_HEAD, rebase-merge/; or
// - it succeeds: the worktree is removed (never forced), every commit the case made is on
//   a ref, and the tree comes back byte for byte — with --park by the restore command
//   printed in the patch header, run verbatim; a plain reap only when the branch's own
//   checkout gives back every file.
// 200 cases in `npm test`; `npm run test:soak` sets SVC_PARK_CASES=5000.
// A failure prints fast-check's seed: rerun it with SVC_PARK_SEED=<seed> (SVC_PARK_NOSHRINK=1
// reports the first failing case as generated, without shrinking it).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { SvcError } from '../../shared/errors';
import { reapLaneDir } from '../../server/reap/reapLaneDir';
import type { ReapReport } from '../../shared/format/reapReport';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import {
  BIG,
  NON_UTF8,
  addWorktree,
  b,
  forceRemoveWorktree,
  gitPaths,
  gitPathsStdin,
  headerRestoreCommand,
  ignoredName,
  join,
  makeLaneRepo,
  pseudoRandom,
  sh,
  snapshot,
  sorted,
} from './parkFixtures';
import type { LaneRepo } from './parkFixtures';

const CASES = Number(process.env.SVC_PARK_CASES ?? 200);

type Content = { kind: 'bytes'; data: Buffer } | { kind: 'big'; seed: number };
const KINDS = [
  'modify',
  'append',
  'truncate',
  'delete',
  'gitRm',
  'rename',
  'gitMv',
  'chmod',
  'create',
  'createLink',
  'stageNew',
  'stagedThenEdit',
  'fileToLink',
  'linkToFile',
  'retarget',
  'fileToDir',
  'dirToFile',
  'ignored',
  'bigEdit',
  'assumeUnchanged',
  'skipWorktree',
  'laneIgnore',
  'svcExclude',
  'chmodBits',
  'chmodFolder',
  'detachedCommit',
  'worktreeRef',
  'mergeInProgress',
  'sequencerStopped',
  'nestedGitFile',
  'openWriter',
  'mappedProgram',
  'laneCommitsIgnore',
  'nestedRepoIgnored',
] as const;
type Kind = (typeof KINDS)[number];
interface Op {
  kind: Kind;
  pick: number;
  name: Buffer[];
  content: Content;
  exec: boolean;
  target: Buffer;
}

const TRICKY = [
  'a',
  'b c',
  'new\nline',
  'tab\tx',
  'ünï',
  '日本語',
  'q"uote',
  "ap'os",
  'back\\slash',
  '-dash',
  '*star?',
  '#hash',
  ' lead',
  'trail ',
  'emoji😀',
  'cr\rx',
  'x.txt',
  '~tilde',
  '$dollar',
  'dir',
  'nested',
  'text.txt',
  'deep.txt',
];
const segment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY.map(b), NON_UTF8) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]{1,8}$/).map(b) },
);
const DIFF_LOOKALIKE = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n\\ No newline at end of file\n';
const content: fc.Arbitrary<Content> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => ({ kind: 'bytes' as const, data: b(s) })),
  },
  {
    weight: 6,
    arbitrary: fc.uint8Array({ maxLength: 3000 }).map((d) => ({ kind: 'bytes' as const, data: Buffer.from(d) })),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom('', 'line\r\nwindows\r\n', 'no newline', DIFF_LOOKALIKE)
      .map((s) => ({ kind: 'bytes' as const, data: b(s) })),
  },
  { weight: 1, arbitrary: fc.integer().map((seed) => ({ kind: 'big' as const, seed })) },
);
const target = fc.constantFrom(
  ...[
    'text.txt',
    'dir',
    'missing-target',
    '../outside',
    '/etc/hostname',
    'ünï target',
    'a b',
    'dir/nested/deep.txt',
    '.',
    'new\nline target',
  ].map(b),
  NON_UTF8,
);
const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom(...KINDS),
  pick: fc.nat(),
  name: fc.array(segment, { minLength: 1, maxLength: 3 }),
  content,
  exec: fc.boolean(),
  target,
});

const MODES = [0o600, 0o000, 0o640, 0o700, 0o444, 0o604];
// Folder modes keep the owner's rwx so later ops can still write inside (tests may not run as root).
const FOLDER_MODES = [0o700, 0o750, 0o711, 0o775, 0o770];
const bytesOf = (c: Content) => (c.kind === 'big' ? pseudoRandom(c.seed, BIG + (c.seed & 0xff)) : c.data);

/** Applies ops to a worktree through the file system and git, as an agent would. */
class Mutator {
  /** Commits the case made that must outlive a successful reap (on some ref). */
  readonly made: string[] = [];
  /** Processes the case started (killed after it). */
  readonly spawned: ChildProcess[] = [];

  constructor(
    private wt: string,
    private env: NodeJS.ProcessEnv,
    /** The repository's shared info/exclude (emptied after every case). */
    private exclude: string,
  ) {}

  private out(args: string[], input?: Buffer): { code: number; stdout: string } {
    const r = spawnSync('git', args, { cwd: this.wt, env: this.env, input, encoding: 'utf8' });
    return { code: r.status ?? -1, stdout: (r.stdout ?? '').trim() };
  }

  /** A commit on top of `parent` adding one file, made without touching the worktree, its index or any reflog. */
  private sideCommit(rel: string, data: Buffer, message: string, parent = 'HEAD'): string | null {
    const blob = this.out(['hash-object', '-w', '--stdin'], data);
    if (blob.code !== 0) return null;
    const tmpIndex = `${this.wt}.side-index`;
    const env = { ...this.env, GIT_INDEX_FILE: tmpIndex };
    try {
      const run = (args: string[]) => spawnSync('git', args, { cwd: this.wt, env, encoding: 'utf8' });
      if (run(['read-tree', parent]).status !== 0) return null;
      if (run(['update-index', '--add', '--cacheinfo', `100644,${blob.stdout},${rel}`]).status !== 0) return null;
      const tree = run(['write-tree']);
      const commit = this.out(['commit-tree', tree.stdout.trim(), '-p', parent, '-m', message]);
      return commit.code === 0 ? commit.stdout : null;
    } finally {
      fs.rmSync(tmpIndex, { force: true });
    }
  }

  private abs = (rel: Buffer) => join(this.wt, rel);
  private lstat = (rel: Buffer) => fs.lstatSync(this.abs(rel), { throwIfNoEntry: false });

  /** Existing entries, ignored ones left out: regular files, symlinks, folders (not the top). */
  list(): { files: Buffer[]; links: Buffer[]; dirs: Buffer[] } {
    const out = { files: [] as Buffer[], links: [] as Buffer[], dirs: [] as Buffer[] };
    const walk = (rel: Buffer) => {
      for (const name of fs
        .readdirSync(rel.length ? this.abs(rel) : this.wt, { encoding: 'buffer' })
        .sort((a, b) => Buffer.compare(a, b))) {
        if (name.toString('latin1') === '.git') continue; // the worktree's own, or one a case wrote (never edited by later ops)
        const child = rel.length ? Buffer.concat([rel, b('/'), name]) : name;
        const st = fs.lstatSync(this.abs(child));
        if (ignoredName(name, st.isDirectory())) continue;
        if (st.isSymbolicLink()) out.links.push(child);
        else if (st.isDirectory()) {
          out.dirs.push(child);
          walk(child);
        } else out.files.push(child);
      }
    };
    walk(Buffer.alloc(0));
    return out;
  }

  /** Creates the parent folders of `rel`; false when something not a folder is in the way. */
  private mkdirs(rel: Buffer): boolean {
    let at = rel.indexOf(0x2f);
    while (at !== -1) {
      const prefix = rel.subarray(0, at);
      const st = this.lstat(prefix);
      if (!st) fs.mkdirSync(this.abs(prefix));
      else if (!st.isDirectory()) return false;
      at = rel.indexOf(0x2f, at + 1);
    }
    return true;
  }

  /** Writes a file at `rel` without following a symlink there; false when a folder is in the way. */
  private write(rel: Buffer, data: Buffer, exec?: boolean): boolean {
    if (!this.mkdirs(rel)) return false;
    const st = this.lstat(rel);
    if (st?.isDirectory()) return false;
    if (st?.isSymbolicLink()) fs.unlinkSync(this.abs(rel));
    fs.writeFileSync(this.abs(rel), data);
    if (exec !== undefined) fs.chmodSync(this.abs(rel), exec ? 0o755 : 0o644);
    return true;
  }

  private link(rel: Buffer, to: Buffer): boolean {
    if (!this.mkdirs(rel)) return false;
    const st = this.lstat(rel);
    if (st?.isDirectory()) return false;
    if (st) fs.unlinkSync(this.abs(rel));
    fs.symlinkSync(to, this.abs(rel));
    return true;
  }

  private git(args: string[], paths: Buffer[]): number {
    return args[0] === 'update-index'
      ? gitPathsStdin(this.wt, this.env, args, paths)
      : gitPaths(this.wt, this.env, args, paths);
  }

  apply(o: Op): void {
    const { files, links, dirs } = this.list();
    const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[o.pick % xs.length] : undefined);
    const name = Buffer.concat(o.name.flatMap((seg, i) => (i ? [b('/'), seg] : [seg])));
    const data = bytesOf(o.content);
    const file = pick(files);
    const entry = pick([...files, ...links]);
    switch (o.kind) {
      case 'modify':
        if (file) this.write(file, data);
        return;
      case 'append':
        if (file) fs.appendFileSync(this.abs(file), data.subarray(0, 500));
        return;
      case 'truncate':
        if (file) fs.writeFileSync(this.abs(file), '');
        return;
      case 'delete':
        if (entry) fs.unlinkSync(this.abs(entry));
        return;
      case 'gitRm':
        if (entry) this.git(['rm', '--quiet', '--ignore-unmatch'], [entry]);
        return;
      case 'rename':
      case 'gitMv': {
        if (!entry || !this.mkdirs(name) || this.lstat(name)?.isDirectory()) return;
        fs.renameSync(this.abs(entry), this.abs(name));
        if (o.kind === 'gitMv') this.git(['add', '-A'], [entry, name]);
        return;
      }
      case 'chmod':
        if (file) fs.chmodSync(this.abs(file), fs.statSync(this.abs(file)).mode ^ 0o111);
        return;
      case 'create':
        this.write(name, data, o.exec);
        return;
      case 'createLink':
        this.link(name, o.target);
        return;
      case 'stageNew':
        if (this.write(name, data, o.exec)) this.git(['add'], [name]);
        return;
      case 'stagedThenEdit': {
        const at = file ?? name;
        if (this.write(at, data)) {
          this.git(['add'], [at]);
          fs.appendFileSync(this.abs(at), '\nunstaged edit\n');
        }
        return;
      }
      case 'fileToLink':
        if (file) this.link(file, o.target);
        return;
      case 'linkToFile': {
        const l = pick(links);
        if (l) this.write(l, data);
        return;
      }
      case 'retarget': {
        const l = pick(links);
        if (l) this.link(l, o.target);
        return;
      }
      case 'fileToDir':
        if (file) {
          fs.unlinkSync(this.abs(file));
          this.write(Buffer.concat([file, b('/'), o.name[0]]), data);
        }
        return;
      case 'dirToFile': {
        const d = pick(dirs);
        if (d) {
          fs.rmSync(this.abs(d), { recursive: true });
          this.write(d, data);
        }
        return;
      }
      case 'ignored':
        this.write(o.exec ? Buffer.concat([b('build/'), name]) : Buffer.concat([name, b('.log')]), data);
        return;
      case 'assumeUnchanged':
      case 'skipWorktree': {
        // An index bit that hides the file from git status, then an edit (or a deletion) under it.
        if (
          !file ||
          this.git(
            ['update-index', o.kind === 'assumeUnchanged' ? '--assume-unchanged' : '--skip-worktree'],
            [file],
          ) !== 0
        )
          return;
        // A deleted skip-worktree file reads as a sparse checkout's absent one (nothing to lose).
        if (o.exec && o.kind === 'assumeUnchanged') fs.unlinkSync(this.abs(file));
        else this.write(file, data);
        return;
      }
      case 'laneIgnore': {
        // A .gitignore the lane writes itself, hiding itself and new work beside it.
        const dir = o.exec ? name : Buffer.alloc(0);
        const at = (rel: string) => (dir.length ? Buffer.concat([dir, b('/'), b(rel)]) : b(rel));
        if (this.write(at('.gitignore'), b(o.pick % 2 ? '*\n' : '*.txt\n.gitignore\n')))
          this.write(at('work.txt'), data);
        return;
      }
      case 'svcExclude': {
        // What svc issue new once appended to the shared info/exclude, hiding these in every worktree.
        fs.appendFileSync(
          this.exclude,
          '# svc: review files and the pipeline journal are never part of the work\n.svc/\nreview.md\n',
        );
        this.write(o.exec ? b('.svc/notes.md') : b('review.md'), data);
        return;
      }
      case 'chmodBits': {
        // Permission bits git does not record (it keeps only the exec bit).
        const at = file ?? (this.write(name, data) ? name : undefined);
        if (at && this.lstat(at)?.isFile()) fs.chmodSync(this.abs(at), MODES[o.pick % MODES.length]);
        return;
      }
      case 'chmodFolder': {
        // Folder permission bits: git records no folders at all.
        const at = pick(dirs) ?? (this.write(Buffer.concat([name, b('/f.txt')]), data) ? name : undefined);
        if (at && this.lstat(at)?.isDirectory()) fs.chmodSync(this.abs(at), FOLDER_MODES[o.pick % FOLDER_MODES.length]);
        return;
      }
      case 'detachedCommit': {
        // Commit on a detached HEAD, then go back: only the worktree's HEAD reflog holds it.
        const branch = this.out(['symbolic-ref', '-q', '--short', 'HEAD']);
        if (branch.code !== 0 || this.out(['checkout', '--quiet', '--detach']).code !== 0) return;
        const side = this.sideCommit(`detached-${o.pick % 1000}.txt`, data, 'detached work');
        if (side && this.out(['update-ref', '-m', 'commit: detached work', 'HEAD', side]).code === 0)
          this.made.push(side);
        this.out(['checkout', '--quiet', branch.stdout]);
        return;
      }
      case 'worktreeRef': {
        // A commit only a per-worktree ref holds (it dies with the worktree's private folder).
        const side = this.sideCommit(`kept-${o.pick % 1000}.txt`, data, 'held by refs/worktree');
        if (side && this.out(['update-ref', `refs/worktree/keep-${o.pick % 1000}`, side]).code === 0)
          this.made.push(side);
        return;
      }
      case 'mergeInProgress': {
        // A merge of a commit nothing else holds, left uncommitted: MERGE_HEAD names its other parent.
        const [one, two] = [`merged-${o.pick % 1000}.txt`, `merged-${o.pick % 1000}-b.txt`];
        let side = this.sideCommit(one, data, 'the other parent');
        if (side && o.exec) side = this.sideCommit(two, data, 'the other parent', side);
        if (!side) return;
        this.made.push(side);
        if (o.exec) {
          // Conflicts, one of two resolved: the lane committed its own version of both files first.
          if (!this.write(b(one), b('lane\n')) || !this.write(b(two), b('lane\n'))) return;
          if (this.git(['add', '--force'], [b(one), b(two)]) !== 0) return;
          if (this.out(['commit', '--quiet', '--no-verify', '-m', 'lane side', '--', one, two]).code !== 0) return;
          this.made.push(this.out(['rev-parse', 'HEAD']).stdout);
          this.out(['merge', '--quiet', '--no-ff', '--no-commit', side]);
          if (this.write(b(one), b('resolved\n'))) this.git(['add', '--force'], [b(one)]);
          return;
        }
        this.out(['merge', '--quiet', '--no-ff', '--no-commit', side]);
        return;
      }
      case 'sequencerStopped': {
        // A cherry-pick or revert stopped on a conflict (CHERRY_PICK_HEAD, REVERT_HEAD name a
        // commit nothing else holds), or an interactive rebase stopped at a `break` (rebase-merge/).
        const how = o.pick % 3;
        if (how === 2) {
          this.out(['-c', `sequence.editor=sh -c 'echo break > "$1"' -`, 'rebase', '--quiet', '-i', 'HEAD']);
          return;
        }
        // P adds the file, Y changes it; HEAD has no such file, so applying Y (or undoing it) conflicts.
        const rel = `picked-${o.pick % 1000}.txt`;
        const p = this.sideCommit(rel, b('before\n'), 'the base of the picked commit');
        if (!p) return;
        const y = this.sideCommit(rel, Buffer.concat([b('after\n'), data]), 'the picked commit', p);
        if (!y) return;
        this.made.push(p, y);
        this.out(['-c', 'core.editor=true', how === 0 ? 'cherry-pick' : 'revert', y]);
        return;
      }
      case 'nestedGitFile': {
        // A `.git` file in a subfolder beside work: git never stores it, so no patch carries it.
        const at = (rel: string) => Buffer.concat([name, b('/'), b(rel)]);
        if (this.write(at('.git'), b('gitdir: /nonexistent\n'))) this.write(at('work.txt'), data);
        return;
      }
      case 'openWriter': {
        // A writer started outside the lane whose output goes to a file in it.
        const rel = o.exec ? b(`build/late-${o.pick % 1000}.log`) : b(`late-${o.pick % 1000}.out`);
        if (!this.mkdirs(rel) || this.lstat(rel)?.isDirectory()) return;
        const fd = fs.openSync(this.abs(rel), 'a');
        const child = spawn('sh', ['-c', 'sleep 600; echo LATE'], {
          cwd: path.dirname(this.wt),
          stdio: ['ignore', fd, 'ignore'],
          detached: true,
        });
        fs.closeSync(fd);
        this.spawned.push(child);
        return;
      }
      case 'mappedProgram': {
        // A program run from the lane (a tool its build made) by a process working elsewhere:
        // the lane's file is only mapped, neither open nor the working directory.
        const rel = o.exec ? b(`build/tool-${o.pick % 1000}`) : b(`bin/tool-${o.pick % 1000}`);
        if (!this.mkdirs(rel) || this.lstat(rel)) return;
        fs.copyFileSync('/bin/sleep', this.abs(rel));
        fs.chmodSync(this.abs(rel), 0o755);
        const child = spawn(this.abs(rel).toString('utf8'), ['600'], {
          cwd: path.dirname(this.wt),
          stdio: 'ignore',
          detached: true,
        });
        this.spawned.push(child);
        // Running once the kernel maps it: exec may still be under way when spawn returns.
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline && !mapsOf(child.pid).includes(this.abs(rel).toString('utf8'))) sleepSync(20);
        return;
      }
      case 'laneCommitsIgnore': {
        // The lane commits a .gitignore of `*` itself, then writes new work it hides.
        const dir = o.exec ? name : Buffer.alloc(0);
        const at = (rel: string) => (dir.length ? Buffer.concat([dir, b('/'), b(rel)]) : b(rel));
        if (!this.write(at('.gitignore'), b('*\n!.gitignore\n'))) return;
        if (this.git(['add', '--force'], [at('.gitignore')]) !== 0) return;
        if (this.out(['commit', '--quiet', '--no-verify', '-m', 'ignore everything']).code === 0)
          this.made.push(this.out(['rev-parse', 'HEAD']).stdout);
        this.write(at('newwork.txt'), data);
        return;
      }
      case 'nestedRepoIgnored': {
        // A clone with its own commit inside a folder the project ignores (build/).
        const dep = b(`build/dep-${o.pick % 1000}`);
        if (!this.mkdirs(Buffer.concat([dep, b('/x')])) || this.lstat(dep)?.isFile()) return;
        const abs = this.abs(dep).toString('utf8');
        if (spawnSync('git', ['init', '--quiet', abs], { env: this.env }).status !== 0) return;
        fs.writeFileSync(path.join(abs, 'lib.c'), data);
        spawnSync('git', ['-C', abs, 'add', 'lib.c'], { env: this.env });
        spawnSync('git', ['-C', abs, 'commit', '--quiet', '-m', 'dep'], { env: this.env });
        return;
      }
      case 'bigEdit': {
        const big = this.lstat(b('big.bin'));
        if (big?.isFile()) {
          const fd = fs.openSync(this.abs(b('big.bin')), 'r+');
          fs.writeSync(fd, data.subarray(0, 64), 0, Math.min(64, data.length), o.pick % big.size);
          fs.closeSync(fd);
        }
        return;
      }
    }
  }
}

/** The pseudo-refs a half-done operation leaves, each naming a commit it may alone hold. */
const OPERATION_HEADS = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD'] as const;
/** The folders a stopped rebase or `git am` leaves. */
const OPERATION_DIRS = ['rebase-merge', 'rebase-apply'] as const;

/** What a refused reap must leave as it was, beyond the files: git status, HEAD, an operation in progress. */
function gitState(wt: string, env: NodeJS.ProcessEnv) {
  const run = (args: string[]) => spawnSync('git', args, { cwd: wt, env, encoding: 'utf8' }).stdout;
  const gitDir = run(['rev-parse', '--absolute-git-dir']).trim();
  const read = (f: string) =>
    fs.existsSync(path.join(gitDir, f)) ? fs.readFileSync(path.join(gitDir, f), 'utf8') : null;
  const operations: Record<string, string | string[]> = {};
  for (const h of OPERATION_HEADS) {
    const sha = read(h);
    if (sha !== null) operations[h] = sha;
  }
  for (const d of OPERATION_DIRS) {
    if (fs.existsSync(path.join(gitDir, d))) operations[d] = fs.readdirSync(path.join(gitDir, d)).sort();
  }
  return {
    status: run(['status', '--porcelain=v1', '-z', '--untracked-files=all']),
    head: run(['rev-parse', 'HEAD']).trim(),
    /** Stage numbers and paths of unmerged entries: the conflicts a half-done operation left. */
    conflicts: run(['ls-files', '--unmerged', '-z']),
    operations,
  };
}

/** The memory maps of process `pid` ('' once it is gone). */
function mapsOf(pid: number | undefined): string {
  try {
    return fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return '';
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Every `.git` below the top of `wt` (the worktree's own left out); symlinks are not followed. */
function nestedGitIn(wt: string): string[] {
  const found: string[] = [];
  const walk = (dir: Buffer, top: boolean) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
      const full = Buffer.concat([dir, b('/'), e.name]);
      if (e.name.toString('latin1') === '.git') {
        if (!top) found.push(full.toString('latin1'));
      } else if (e.isDirectory()) walk(full, false);
    }
  };
  walk(b(wt), true);
  return found;
}

describe('reap property: random worktrees are refused unchanged, or reaped with every commit kept and every byte restored', function () {
  // Park now also rehearses the restore on disk (a checkout of the whole tree per case).
  this.timeout(Math.max(120_000, CASES * 6_000));
  let s: Scratch;
  let repo: LaneRepo;
  let patches: string;
  let baseSnapshot: ReturnType<typeof sorted>;
  // A second base: the first plus a committed `* text=auto`, so CRLF work is normalized by git.
  let textAuto: { sha: string; snapshot: ReturnType<typeof sorted> };
  let exclude: string;

  before(() => {
    s = makeScratch('park-prop');
    repo = makeLaneRepo(s);
    patches = path.join(s.svcHome, 'agents', 'conv-prop');
    exclude = path.join(repo.dir, '.git', 'info', 'exclude');
    fs.mkdirSync(patches, { recursive: true });
    const probe = addWorktree(repo, s.env, 'probe', null);
    baseSnapshot = sorted(snapshot(probe));
    fs.writeFileSync(path.join(probe, '.gitattributes'), '* text=auto\n');
    git(probe, s.env, 'add', '.gitattributes');
    git(probe, s.env, 'commit', '--quiet', '-m', 'text=auto');
    textAuto = { sha: git(probe, s.env, 'rev-parse', 'HEAD'), snapshot: sorted(snapshot(probe)) };
    git(repo.dir, s.env, 'tag', 'text-auto', textAuto.sha);
    forceRemoveWorktree(repo, s.env, probe);
  });
  after(() => s.dispose());

  it(`${CASES} random states: reap (plain or --park) refuses with nothing changed, or removes the worktree keeping every commit, and the printed restore command gives back every byte and mode`, async () => {
    let n = 0;
    let parked = 0;
    let refusals = 0;
    let bigCases = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.nat(3),
        async (ops, onBranch, withTextAuto, parkPick) => {
          const name = `case-${n++}`;
          // SVC_PARK_PROGRESS=<k> prints a line every k cases, so a long soak shows how far it got.
          const every = Number(process.env.SVC_PARK_PROGRESS ?? 0);
          if (every > 0 && n % every === 0)
            process.stdout.write(
              `      … ${n} cases, ${parked} parked, ${refusals} refused, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
            );
          const branch = onBranch ? `prop/${name}` : null;
          const base = withTextAuto ? textAuto : { sha: repo.base, snapshot: baseSnapshot };
          const wt = addWorktree(repo, s.env, name, branch, base.sha);
          const patch = path.join(patches, `parked-${name}.patch`);
          // Three cases in four park; the rest are plain reaps, which must refuse over any work.
          const park = parkPick > 0;
          const keepName = `prop-kept/${name}`;
          const m = new Mutator(wt, s.env, exclude);
          try {
            for (const o of ops) m.apply(o);
            const expected = sorted(snapshot(wt));
            if (
              expected.some(
                ([, e]) =>
                  e.type === 'file' &&
                  e.size > 1_000_000 &&
                  !baseSnapshot.some(([, be]) => be.type === 'file' && 'sha256' in be && be.sha256 === e.sha256),
              )
            )
              bigCases++;
            const before = gitState(wt, s.env);
            // The commits the case made that something in the worktree still names (a later op may have dropped one itself).
            const reachable = new Set(
              spawnSync(
                'git',
                ['rev-list', '--all', '--reflog', ...OPERATION_HEADS.filter((h) => h in before.operations)],
                {
                  cwd: wt,
                  env: s.env,
                  encoding: 'utf8',
                },
              ).stdout.split('\n'),
            );
            const precious = m.made.filter((c) => reachable.has(c));
            const mustRefuse = new Set<string>();
            if (nestedGitIn(wt).length) mustRefuse.add('nestedGit');
            if (Object.keys(before.operations).length) mustRefuse.add('operationInProgress');
            if (m.spawned.some((c) => c.exitCode === null && c.signalCode === null)) mustRefuse.add('processesInside');

            let report: ReapReport | null = null;
            let refusal: SvcError | null = null;
            try {
              report = await reapLaneDir({
                env: s.env,
                conv: { id: n, name },
                dir: wt,
                kind: 'worktree',
                lanesRoot: repo.lanesRoot,
                park,
                keep: true,
                patchFile: patch,
                keepBranchName: keepName,
                stop: async () => true,
                archive: () => undefined,
              });
            } catch (e) {
              if (!(e instanceof SvcError) || e.kind !== 'refused') throw e;
              refusal = e;
            }

            if (refusal) {
              refusals++;
              const allowed = new Set([...mustRefuse, ...(park ? [] : ['dirty'])]);
              assert.ok(
                allowed.has(refusal.reason),
                `refused for ${refusal.reason}, which this case does not hold (allowed: ${[...allowed].join(', ') || 'none'}): ${refusal.message}`,
              );
              assert.deepEqual(sorted(snapshot(wt)), expected, 'a refused reap changed a file');
              assert.deepEqual(
                gitState(wt, s.env),
                before,
                'a refused reap changed git status, HEAD, conflicts or an operation in progress',
              );
              assert.equal(fs.existsSync(patch), false, 'a refused reap left a patch');
              return;
            }
            assert.ok(report);
            assert.deepEqual([...mustRefuse], [], `reaped a tree it must refuse (${[...mustRefuse].join(', ')})`);
            assert.equal(fs.existsSync(wt), false, 'worktree removed without force');
            for (const sha of precious) {
              const holders = git(repo.dir, s.env, 'for-each-ref', '--contains', sha, '--format=%(refname)');
              assert.notEqual(holders, '', `commit ${sha} the case made is on no ref after the reap`);
            }
            const r = report.park;
            if (r === null) {
              // Nothing parked: the branch (or the kept head) checked out again must give back every
              // file; permission bits alone on a tree git calls clean are not work.
              const at = report.branch ?? report.keptBranch ?? report.head!;
              const again = sh(
                report.branch
                  ? `git worktree add --quiet ${wt} ${at}`
                  : `git worktree add --quiet --detach ${wt} ${at}`,
                s.env,
                repo.dir,
              );
              assert.equal(again.code, 0, again.stderr);
              const bitsAside = (x: ReturnType<typeof sorted>) =>
                x.map(([k, e]) => [k, e.type === 'symlink' ? e : { ...e, mode: '' }]);
              assert.deepEqual(
                bitsAside(sorted(snapshot(wt))),
                bitsAside(expected),
                'a reap that parked nothing removed work',
              );
              return;
            }
            parked++;
            const restore = headerRestoreCommand(r.patchFile);
            assert.equal(restore, r.restoreAfterRemoveCommand, 'the header prints the command the report gives');
            const restored = sh(restore, s.env, s.home);
            assert.equal(restored.code, 0, `restore failed: ${restored.stderr}`);
            assert.deepEqual(sorted(snapshot(wt)), expected, 'restored work differs');
          } finally {
            for (const c of m.spawned) {
              try {
                process.kill(-c.pid!, 'SIGKILL');
              } catch {
                // gone
              }
            }
            forceRemoveWorktree(repo, s.env, wt);
            fs.rmSync(exclude, { force: true });
            for (const ref of git(
              repo.dir,
              s.env,
              'for-each-ref',
              '--format=%(refname)',
              `refs/heads/prop/${name}`,
              `refs/heads/${keepName}`,
              `refs/heads/${keepName}-*`,
            )
              .split('\n')
              .filter(Boolean)) {
              spawnSync('git', ['update-ref', '-d', ref], { cwd: repo.dir, env: s.env });
            }
            fs.rmSync(patch, { force: true });
            fs.rmSync(patch.replace(/\.patch$/, '.files.tar'), { force: true });
          }
        },
      ),
      // SVC_PARK_SEED replays a reported failure with the seed fast-check printed.
      process.env.SVC_PARK_SEED
        ? { numRuns: CASES, seed: Number(process.env.SVC_PARK_SEED), endOnFailure: !!process.env.SVC_PARK_NOSHRINK }
        : { numRuns: CASES, endOnFailure: !!process.env.SVC_PARK_NOSHRINK },
    );
    const ms = Date.now() - started;
    // Reported so the suite's cost stays visible: a slower park shows here before CI's time runs out.
    process.stdout.write(
      `      ${n} cases (${parked} parked, ${refusals} refused, ${bigCases} with a new or changed file over 1 MB) in ${(ms / 1000).toFixed(1)} s, ${(ms / n).toFixed(0)} ms per case\n`,
    );
  });
});
