// The proof that reap --park never loses work (spec: no code path deletes a user's work): random dirty worktrees of
// every kind — modified, added, deleted, renamed (staged and not), exec-bit changes,
// binary, empty and >1 MB files, names with spaces, newlines, non-ASCII and non-UTF-8
// bytes, nested untracked folders, symlinks (added, retargeted, type changes), files
// becoming folders and back, staged-then-edited files, ignored files, edits hidden by
// assume-unchanged or skip-worktree, .gitignore files the lane wrote (hiding themselves),
// svc's old review entries in the shared info/exclude, CRLF work under a committed
// `* text=auto`, permission bits git does not record (0600, 0000, 0444…, and folders' bits) — and for each:
// park succeeds and leaves the tree clean, the worktree is removed (never forced), and
// the restore command printed in the patch header, run verbatim, gives back every byte and mode.
// 200 cases in `npm test`; `npm run test:soak` sets SVC_PARK_CASES=5000.
// A failure prints fast-check's seed: rerun it with SVC_PARK_SEED=<seed> (SVC_PARK_NOSHRINK=1
// reports the first failing case as generated, without shrinking it).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import { parkWorktree } from '../../server/reap/park';
import { removeWorktree } from '../../server/reap/removeDirs';
import { uncommittedPaths } from '../../server/reap/worktreeInfo';
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
const segment = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TRICKY.map(b), NON_UTF8) }, { weight: 2, arbitrary: fc.stringMatching(/^[a-z0-9]{1,8}$/).map(b) });
const DIFF_LOOKALIKE = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n\\ No newline at end of file\n';
const content: fc.Arbitrary<Content> = fc.oneof(
  { weight: 12, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => ({ kind: 'bytes' as const, data: b(s) })) },
  { weight: 6, arbitrary: fc.uint8Array({ maxLength: 3000 }).map((d) => ({ kind: 'bytes' as const, data: Buffer.from(d) })) },
  { weight: 4, arbitrary: fc.constantFrom('', 'line\r\nwindows\r\n', 'no newline', DIFF_LOOKALIKE).map((s) => ({ kind: 'bytes' as const, data: b(s) })) },
  { weight: 1, arbitrary: fc.integer().map((seed) => ({ kind: 'big' as const, seed })) },
);
const target = fc.constantFrom(
  ...['text.txt', 'dir', 'missing-target', '../outside', '/etc/hostname', 'ünï target', 'a b', 'dir/nested/deep.txt', '.', 'new\nline target'].map(b),
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
  constructor(
    private wt: string,
    private env: NodeJS.ProcessEnv,
    /** The repository's shared info/exclude (emptied after every case). */
    private exclude: string,
  ) {}

  private abs = (rel: Buffer) => join(this.wt, rel);
  private lstat = (rel: Buffer) => fs.lstatSync(this.abs(rel), { throwIfNoEntry: false });

  /** Existing entries, ignored ones left out: regular files, symlinks, folders (not the top). */
  list(): { files: Buffer[]; links: Buffer[]; dirs: Buffer[] } {
    const out = { files: [] as Buffer[], links: [] as Buffer[], dirs: [] as Buffer[] };
    const walk = (rel: Buffer) => {
      for (const name of fs.readdirSync(rel.length ? this.abs(rel) : this.wt, { encoding: 'buffer' }).sort(Buffer.compare)) {
        if (!rel.length && name.toString('latin1') === '.git') continue;
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
    return args[0] === 'update-index' ? gitPathsStdin(this.wt, this.env, args, paths) : gitPaths(this.wt, this.env, args, paths);
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
        if (!file || this.git(['update-index', o.kind === 'assumeUnchanged' ? '--assume-unchanged' : '--skip-worktree'], [file]) !== 0) return;
        // A deleted skip-worktree file reads as a sparse checkout's absent one (nothing to lose).
        if (o.exec && o.kind === 'assumeUnchanged') fs.unlinkSync(this.abs(file));
        else this.write(file, data);
        return;
      }
      case 'laneIgnore': {
        // A .gitignore the lane writes itself, hiding itself and new work beside it.
        const dir = o.exec ? name : Buffer.alloc(0);
        const at = (rel: string) => (dir.length ? Buffer.concat([dir, b('/'), b(rel)]) : b(rel));
        if (this.write(at('.gitignore'), b(o.pick % 2 ? '*\n' : '*.txt\n.gitignore\n'))) this.write(at('work.txt'), data);
        return;
      }
      case 'svcExclude': {
        // What svc issue new once appended to the shared info/exclude, hiding these in every worktree.
        fs.appendFileSync(this.exclude, '# svc: review files and the pipeline journal are never part of the work\n.svc/\nreview.md\n');
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

describe('park property: random dirty worktrees are parked and restored byte for byte', function () {
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

  it(`${CASES} random dirty states: park, remove the worktree, restore with the printed command, compare every byte and mode`, async () => {
    let n = 0;
    let parked = 0;
    let bigCases = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), async (ops, onBranch, withTextAuto) => {
        const name = `case-${n++}`;
        // SVC_PARK_PROGRESS=<k> prints a line every k cases, so a long soak shows how far it got.
        const every = Number(process.env.SVC_PARK_PROGRESS ?? 0);
        if (every > 0 && n % every === 0) process.stdout.write(`      … ${n} cases, ${parked} parked, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
        const branch = onBranch ? `prop/${name}` : null;
        const base = withTextAuto ? textAuto : { sha: repo.base, snapshot: baseSnapshot };
        const wt = addWorktree(repo, s.env, name, branch, base.sha);
        const patch = path.join(patches, `parked-${name}.patch`);
        try {
          const m = new Mutator(wt, s.env, exclude);
          for (const o of ops) m.apply(o);
          const expected = sorted(snapshot(wt));
          if (expected.some(([, e]) => e.type === 'file' && e.size > 1_000_000 && !baseSnapshot.some(([, be]) => be.type === 'file' && 'sha256' in be && be.sha256 === e.sha256)))
            bigCases++;

          const r = await parkWorktree(wt, patch, { env: s.env });
          assert.deepEqual(await uncommittedPaths(wt, { env: s.env }), [], 'park leaves a clean tree');
          await removeWorktree(wt, { env: s.env });
          assert.equal(fs.existsSync(wt), false, 'worktree removed without force');
          if (r === null) {
            // Permission bits alone are not work git sees: without a git-visible change there is no park.
            const bitsAside = (m: ReturnType<typeof sorted>) => m.map(([k, e]) => [k, e.type === 'symlink' ? e : { ...e, mode: '' }]);
            assert.deepEqual(bitsAside(expected), bitsAside(base.snapshot), 'nothing parked only when nothing differed from HEAD');
            return;
          }
          parked++;
          const restore = headerRestoreCommand(r.patchFile);
          assert.equal(restore, r.restoreAfterRemoveCommand, 'the header prints the command the report gives');
          const restored = sh(restore, s.env, s.home);
          assert.equal(restored.code, 0, `restore failed: ${restored.stderr}`);
          assert.deepEqual(sorted(snapshot(wt)), expected, 'restored work differs');
        } finally {
          forceRemoveWorktree(repo, s.env, wt);
          fs.rmSync(exclude, { force: true });
          if (branch) spawnSync('git', ['branch', '-D', '--quiet', branch], { cwd: repo.dir, env: s.env });
          fs.rmSync(patch, { force: true });
        }
      }),
      // SVC_PARK_SEED replays a reported failure with the seed fast-check printed.
      process.env.SVC_PARK_SEED
        ? { numRuns: CASES, seed: Number(process.env.SVC_PARK_SEED), endOnFailure: !!process.env.SVC_PARK_NOSHRINK }
        : { numRuns: CASES, endOnFailure: !!process.env.SVC_PARK_NOSHRINK },
    );
    const ms = Date.now() - started;
    // Reported so the suite's cost stays visible: a slower park shows here before CI's time runs out.
    process.stdout.write(
      `      ${n} cases (${parked} parked, ${bigCases} with a new or changed file over 1 MB) in ${(ms / 1000).toFixed(1)} s, ${(ms / n).toFixed(0)} ms per case\n`,
    );
  });
});
