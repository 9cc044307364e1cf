// The random dirty worktrees of the reap --park property (parkProperty.integration.test.ts):
// the kinds of change an agent can leave, fast-check's generators of them, and the Mutator
// that makes each change through the file system and git, as an agent would.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { BIG, NON_UTF8, b, gitPaths, gitPathsStdin, ignoredName, join, pseudoRandom } from './parkFixtures';

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
export const op: fc.Arbitrary<Op> = fc.record({
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
export class Mutator {
  /** Commits the case made that must outlive a successful reap (on some ref). */
  readonly made: string[] = [];
  /** Processes the case started (killed after it). */
  readonly spawned: ChildProcess[] = [];

  /**
   * The started processes that still hold a file in the worktree, open or mapped. A later op
   * may have deleted that file (dirToFile over its folder): the kernel then names it
   * "<path> (deleted)", and a process holding only deleted files holds no work of the lane's.
   */
  holdersInside(): ChildProcess[] {
    const root = fs.realpathSync(this.wt) + '/'; // the kernel names real paths
    const inside = (target: string) => target.startsWith(root) && !target.endsWith(' (deleted)');
    return this.spawned.filter((c) => {
      if (c.exitCode !== null || c.signalCode !== null) return false;
      const fds = listOr(`/proc/${c.pid}/fd`).map((fd) => linkOr(`/proc/${c.pid}/fd/${fd}`));
      const maps = mapsOf(c.pid)
        .split('\n')
        .map((line) => /^\S+\s+\S+\s+\S+\s+\S+\s+\d+\s+(\/.*)$/.exec(line)?.[1] ?? '');
      return [...fds, ...maps].some(inside);
    });
  }

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

  /** Writes a file at `rel` without following a symlink there; false when a folder is in the way or a program runs from it. */
  private write(rel: Buffer, data: Buffer, exec?: boolean): boolean {
    if (!this.mkdirs(rel)) return false;
    const st = this.lstat(rel);
    if (st?.isDirectory()) return false;
    if (st?.isSymbolicLink()) fs.unlinkSync(this.abs(rel));
    if (!unlessRunning(() => fs.writeFileSync(this.abs(rel), data))) return false;
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
        if (file) unlessRunning(() => fs.appendFileSync(this.abs(file), data.subarray(0, 500)));
        return;
      case 'truncate':
        if (file) unlessRunning(() => fs.writeFileSync(this.abs(file), ''));
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

/** The memory maps of process `pid` ('' once it is gone). */
function mapsOf(pid: number | undefined): string {
  try {
    return fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return '';
  }
}

function listOr(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function linkOr(link: string): string {
  try {
    return fs.readlinkSync(link);
  } catch {
    return '';
  }
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs a write of a file; false when the file is a program running from the lane (a
 * mappedProgram op's): Linux refuses to open it for writing (ETXTBSY), as it would an agent's
 * edit of it, so the op changes nothing.
 */
function unlessRunning(write: () => void): boolean {
  try {
    write();
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ETXTBSY') return false;
    throw e;
  }
}
