// parkWorktree against real git: every kind of change saved in one verified patch, the
// printed restore commands run verbatim, and every abort leaves the tree untouched.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import { parkWorktree } from '../../server/reap/park';
import { verifyPatch } from '../../server/reap/parkVerify';
import type { PatchVerifier } from '../../server/reap/parkVerify';
import { removeWorktree } from '../../server/reap/removeDirs';
import { inspectWork } from '../../server/reap/hiddenWork';
import { uncommittedPaths, worktreeInfo } from '../../server/reap/worktreeInfo';
import { git, makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import {
  BIG,
  NON_UTF8,
  addWorktree,
  b,
  forceRemoveWorktree,
  gitPaths,
  join,
  makeLaneRepo,
  pseudoRandom,
  sh,
  snapshot,
  sorted,
} from './parkFixtures';
import type { LaneRepo } from './parkFixtures';
import type { ReapError, ReapRefusal } from '../../shared/refusals/reap';

describe('parkWorktree (reap --park)', function () {
  let s: Scratch;
  let repo: LaneRepo;
  let patches: string;
  let n = 0;
  const worktrees: string[] = [];

  before(() => {
    s = makeScratch('park');
    repo = makeLaneRepo(s);
    patches = path.join(s.svcHome, 'agents', 'conv-park');
  });
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  const fresh = (branch: boolean) => {
    const name = `wt-${n++}`;
    const wt = addWorktree(repo, s.env, name, branch ? `lane/${name}` : null);
    worktrees.push(wt);
    return wt;
  };
  const patchPath = () => path.join(patches, `parked-${n}-${Date.now()}.patch`);
  const indexBytes = (wt: string) =>
    crypto
      .createHash('sha256')
      .update(fs.readFileSync(git(wt, s.env, 'rev-parse', '--path-format=absolute', '--git-path', 'index')))
      .digest('hex');
  const status = (wt: string) =>
    git(wt, s.env, '--no-optional-locks', 'status', '--porcelain=v1', '-z', '--untracked-files=all');

  /** A state with one of everything the issue lists. */
  function makeEverythingDirty(wt: string): void {
    const w = (rel: string | Buffer, data: string | Buffer) => {
      const p = join(wt, typeof rel === 'string' ? b(rel) : rel);
      fs.mkdirSync(path.dirname(p.toString('utf8')), { recursive: true });
      fs.writeFileSync(p, data);
    };
    w('text.txt', 'one\nTWO\nthree\nfour\n'); // modified
    fs.rmSync(path.join(wt, 'dir/other.txt')); // deleted, unstaged
    git(wt, s.env, 'rm', '--quiet', 'empty.txt'); // deleted, staged
    git(wt, s.env, 'mv', 'with space.txt', 'renamed with space.txt'); // renamed, staged
    fs.renameSync(path.join(wt, 'ünïcødé.txt'), path.join(wt, 'dir', 'ünïcødé moved.txt')); // renamed, unstaged
    fs.chmodSync(path.join(wt, 'script.sh'), 0o644); // exec bit removed
    fs.chmodSync(path.join(wt, 'text.txt'), 0o755); // exec bit added
    w('bin.dat', pseudoRandom(99, 5000)); // binary modified
    w('new-binary.bin', pseudoRandom(5, 3000)); // binary added
    w('new-empty', ''); // empty added
    w('name with\nnewline and ü', 'x\n');
    w(Buffer.concat([b('new-'), NON_UTF8]), 'not utf-8 name\n');
    w('untracked/a/b/c/deep file.txt', 'deep\n'); // nested untracked
    w('big-new.bin', pseudoRandom(3, BIG + 10)); // over 1 MB, added
    const big = fs.readFileSync(path.join(wt, 'big.bin'));
    big[500_000] ^= 0xff;
    w('big.bin', big); // over 1 MB, modified
    fs.symlinkSync('dir/nested', path.join(wt, 'new-link')); // symlink added
    fs.rmSync(path.join(wt, 'link'));
    fs.symlinkSync('bin.dat', path.join(wt, 'link')); // symlink retargeted
    fs.rmSync(path.join(wt, 'dirlink'));
    w('dirlink', 'was a symlink\n'); // symlink → file
    w('staged-new.txt', 'staged\n');
    git(wt, s.env, 'add', 'staged-new.txt'); // added, staged
    w('dir/nested/deep.txt', 'staged version\n');
    git(wt, s.env, 'add', 'dir/nested/deep.txt');
    w('dir/nested/deep.txt', 'working version\n'); // staged and unstaged edits of one file
    w('build/out.o', 'ignored\n'); // ignored: not work
  }

  it('saves every kind of change in one patch, cleans the tree, and the printed command restores it in place', async () => {
    const wt = fresh(true);
    makeEverythingDirty(wt);
    const before = snapshot(wt);
    const file = patchPath();
    const r = await parkWorktree(wt, file, { env: s.env });
    assert.ok(r);
    assert.equal(r.patchFile, file);
    assert.equal(r.files, 21);
    assert.equal(r.head, repo.base);
    assert.equal(r.branch, `lane/${path.basename(wt)}`);
    assert.equal(r.restoreCommand, `git -C ${wt} apply --index -p2 --whitespace=nowarn ${file}`);
    assert.deepEqual(await uncommittedPaths(wt, { env: s.env }), []);
    assert.equal(fs.readFileSync(path.join(wt, 'build/out.o'), 'utf8'), 'ignored\n', 'ignored files are left alone');
    assert.deepEqual(
      fs.readdirSync(patches).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary patch left',
    );
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);

    const restored = sh(r.restoreCommand, s.env, s.home);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(sorted(snapshot(wt)), sorted(before));
    // The staged/unstaged split is not kept: the working content comes back, staged.
    assert.equal(git(wt, s.env, 'show', ':dir/nested/deep.txt'), 'working version');
  });

  it('after the worktree is removed, the printed command re-creates it on its branch and restores the work', async () => {
    const wt = fresh(true);
    makeEverythingDirty(wt);
    const before = snapshot(wt);
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    await removeWorktree(wt, { env: s.env });
    assert.equal(fs.existsSync(wt), false);
    assert.equal(
      r.restoreAfterRemoveCommand,
      `git -C ${repo.dir} worktree add ${wt} lane/${path.basename(wt)} && ${r.restoreCommand}`,
    );
    const restored = sh(r.restoreAfterRemoveCommand, s.env, s.home);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(sorted(snapshot(wt)), sorted(before));
    assert.equal(git(wt, s.env, 'symbolic-ref', '--short', 'HEAD'), `lane/${path.basename(wt)}`);
  });

  it('a detached worktree is re-created detached at the parked commit', async () => {
    const wt = fresh(false);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'detached work\n');
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    assert.equal(r.branch, null);
    await removeWorktree(wt, { env: s.env });
    assert.equal(
      r.restoreAfterRemoveCommand,
      `git -C ${repo.dir} worktree add --detach ${wt} ${repo.base} && ${r.restoreCommand}`,
    );
    assert.equal(sh(r.restoreAfterRemoveCommand, s.env, s.home).code, 0);
    assert.equal(fs.readFileSync(path.join(wt, 'text.txt'), 'utf8'), 'detached work\n');
  });

  it('quotes paths with spaces and quotes in the restore commands', async () => {
    const wt = path.join(repo.lanesRoot, `it's a "lane" ${n++}`);
    git(repo.dir, s.env, 'worktree', 'add', '--quiet', '--detach', wt, repo.base);
    worktrees.push(wt);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'quoted\n');
    const file = path.join(patches, `odd dir 'x'`, 'parked-1.patch');
    const r = await parkWorktree(wt, file, { env: s.env });
    assert.ok(r);
    assert.equal(
      r.restoreCommand,
      `git -C '${wt.replace(/'/g, `'\\''`)}' apply --index -p2 --whitespace=nowarn '${file.replace(/'/g, `'\\''`)}'`,
    );
    await removeWorktree(wt, { env: s.env });
    assert.equal(sh(r.restoreAfterRemoveCommand, s.env, s.home).code, 0);
    assert.equal(fs.readFileSync(path.join(wt, 'text.txt'), 'utf8'), 'quoted\n');
  });

  it('the patch names its worktree, branch, head and restore command before the diff', async () => {
    const wt = fresh(true);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'x\n');
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    const head = fs.readFileSync(r.patchFile, 'utf8').split('diff --git')[0];
    assert.equal(
      head,
      [
        'svc parked patch: uncommitted work saved by `svc lane reap --park`.',
        `worktree: ${JSON.stringify(wt)}`,
        `branch: ${JSON.stringify(r.branch)}`,
        `head: ${repo.base}`,
        'paths: 1',
        `restore: ${JSON.stringify(r.restoreAfterRemoveCommand)}`,
        `restore in place: ${JSON.stringify(r.restoreCommand)}`,
        '',
        '',
      ].join('\n'),
    );
  });

  describe('aborts with the tree untouched', () => {
    async function expectUntouched(
      wt: string,
      file: string,
      run: () => Promise<unknown>,
      reason: ReapRefusal | ReapError,
    ): Promise<SvcError> {
      const snap = sorted(snapshot(wt));
      const st = status(wt);
      const idx = indexBytes(wt);
      const patchDirBefore = fs.existsSync(path.dirname(file)) ? fs.readdirSync(path.dirname(file)).sort() : [];
      const err = await run().then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e,
      );
      assert.ok(SvcError.is(err, reason), `expected ${reason}, got ${String(err)}`);
      assert.deepEqual(sorted(snapshot(wt)), snap, 'files unchanged');
      assert.equal(status(wt), st, 'git status unchanged');
      assert.equal(indexBytes(wt), idx, 'real index unchanged');
      assert.deepEqual(
        fs.existsSync(path.dirname(file)) ? fs.readdirSync(path.dirname(file)).sort() : [],
        patchDirBefore,
        'no patch written',
      );
      return err;
    }

    it('when the written patch fails verification (a corrupted patch, checked by the real verifier)', async () => {
      const wt = fresh(true);
      makeEverythingDirty(wt);
      const file = patchPath();
      const corruptThenVerify: PatchVerifier = async (input) => {
        const text = fs.readFileSync(input.patchFile, 'latin1');
        fs.writeFileSync(input.patchFile, text.replace('+TWO', '+TW0'), 'latin1');
        return verifyPatch(input);
      };
      const err = await expectUntouched(
        wt,
        file,
        () => parkWorktree(wt, file, { env: s.env, verify: corruptThenVerify }),
        'parkVerifyFailed',
      );
      assert.equal(err.kind, 'refused');
      assert.match(
        err.message,
        new RegExp(
          `^the parked patch does not reproduce the work in ${wt} \\(tree [0-9a-f]{40} differs from the work [0-9a-f]{40}: M\\ttext.txt\\); nothing was cleaned and no patch was kept$`,
        ),
      );
    });

    it('when the patch does not apply at all', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
      const file = patchPath();
      const truncate: PatchVerifier = async (input) => {
        const text = fs.readFileSync(input.patchFile, 'latin1');
        fs.writeFileSync(input.patchFile, text.replace('-one', '-uno'), 'latin1');
        return verifyPatch(input);
      };
      const err = await expectUntouched(
        wt,
        file,
        () => parkWorktree(wt, file, { env: s.env, verify: truncate }),
        'parkVerifyFailed',
      );
      assert.match(err.message, /\(git apply: error: patch failed: text.txt:1\)/);
    });

    it('when the verifier itself throws', async () => {
      const wt = fresh(false);
      fs.writeFileSync(path.join(wt, 'new.txt'), 'new\n');
      const file = patchPath();
      const err = await expectUntouched(
        wt,
        file,
        () =>
          parkWorktree(wt, file, {
            env: s.env,
            verify: async () => {
              throw new Error('disk on fire');
            },
          }),
        'parkVerifyFailed',
      );
      assert.equal(
        err.message,
        `the parked patch does not reproduce the work in ${wt} (disk on fire); nothing was cleaned and no patch was kept`,
      );
    });

    it('when the work changes while it is being parked', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'first\n');
      const file = patchPath();
      const writeMeanwhile: PatchVerifier = async (input) => {
        fs.writeFileSync(path.join(wt, 'late.txt'), 'written during the park\n');
        return verifyPatch(input);
      };
      const snap = () => sorted(snapshot(wt));
      const err = await parkWorktree(wt, file, { env: s.env, verify: writeMeanwhile }).catch((e: unknown) => e);
      assert.ok(SvcError.is(err, 'parkChanged'));
      assert.equal(
        (err as SvcError).message,
        `the work in ${wt} changed while it was being parked; nothing was cleaned and no patch was kept: reap again`,
      );
      assert.equal(fs.readFileSync(path.join(wt, 'text.txt'), 'utf8'), 'first\n');
      assert.equal(fs.readFileSync(path.join(wt, 'late.txt'), 'utf8'), 'written during the park\n');
      assert.equal(fs.existsSync(file), false);
      assert.ok(snap().length > 0);
    });

    it('when the work changed after the check whose capture the park starts from', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'first\n');
      const info = await worktreeInfo(wt, { env: s.env });
      const dirty = await uncommittedPaths(wt, { env: s.env });
      const seen = await inspectWork(wt, dirty, { env: s.env }, { info, keep: true });
      try {
        fs.writeFileSync(path.join(wt, 'late.txt'), 'written after the check\n');
        const file = patchPath();
        const err = await parkWorktree(wt, file, { env: s.env, checked: { info, capture: seen.kept } }).catch(
          (e: unknown) => e,
        );
        assert.ok(SvcError.is(err, 'parkChanged'));
        assert.equal(fs.readFileSync(path.join(wt, 'text.txt'), 'utf8'), 'first\n');
        assert.equal(fs.readFileSync(path.join(wt, 'late.txt'), 'utf8'), 'written after the check\n');
        assert.equal(fs.existsSync(file), false);
      } finally {
        seen.kept?.dispose();
      }
    });

    it('when a nested repository would have to be parked', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
      const nested = path.join(wt, 'vendor', 'lib');
      fs.mkdirSync(nested, { recursive: true });
      git(nested, s.env, 'init', '--quiet');
      fs.writeFileSync(path.join(nested, 'x'), 'x');
      git(nested, s.env, 'add', 'x');
      git(nested, s.env, 'commit', '--quiet', '-m', 'nested');
      const file = patchPath();
      const err = await expectUntouched(wt, file, () => parkWorktree(wt, file, { env: s.env }), 'nestedGit');
      assert.equal(
        err.message,
        `${wt} holds 1 git repository of its own (a .git that is not the worktree's); reap would delete it and no patch can save it: commit and push its work, then move it out of the worktree (or delete it yourself), and reap again; nothing was changed\n  ${nested}/.git`,
      );
    });

    it('when the patch file already exists (never overwritten)', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
      const file = patchPath();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, 'an older park\n');
      const err = await expectUntouched(wt, file, () => parkWorktree(wt, file, { env: s.env }), 'patchExists');
      assert.equal(err.message, `${file} already exists; parked patches are never overwritten`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'an older park\n');
    });

    it('when the folder is not the top of a worktree (git would answer for the enclosing tree)', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
      const file = patchPath();
      const err = await expectUntouched(
        wt,
        file,
        () => parkWorktree(path.join(wt, 'dir'), file, { env: s.env }),
        'notAWorktree',
      );
      assert.equal(
        err.message,
        `${path.join(wt, 'dir')} is not a linked git worktree (it is inside the work tree ${wt}, not the top of one); reap removes only lane worktrees`,
      );
    });

    it('when the patch would be written inside the worktree it cleans', async () => {
      const wt = fresh(true);
      fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
      const file = path.join(wt, 'parked.patch');
      const err = await expectUntouched(wt, file, () => parkWorktree(wt, file, { env: s.env }), 'patchInsideWorktree');
      assert.equal(err.kind, 'usage');
    });
  });

  it('if cleaning fails after the patch is published, the error names the patch, and the work is in both places', async () => {
    const wt = fresh(true);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'kept twice\n');
    const lock = `${git(wt, s.env, 'rev-parse', '--path-format=absolute', '--git-path', 'index')}.lock`;
    fs.writeFileSync(lock, ''); // another git holds the index: reset --hard cannot start
    const file = patchPath();
    try {
      const err = await parkWorktree(wt, file, { env: s.env }).catch((e: unknown) => e);
      assert.ok(SvcError.is(err, 'parkCleanFailed'));
      assert.equal(err.kind, 'internal');
      assert.match(
        err.message,
        new RegExp(
          `^the work in ${wt} is parked in ${file.replace(/[.]/g, '\\.')}, but cleaning the tree failed: git .*reset .*index\\.lock.*; every change is in that patch$`,
          's',
        ),
      );
      assert.equal(fs.readFileSync(path.join(wt, 'text.txt'), 'utf8'), 'kept twice\n');
      assert.ok(fs.existsSync(file));
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });

  it("starts from the check's capture when handed one, and saves the same work", async () => {
    const wt = fresh(true);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'changed before the check\n');
    fs.writeFileSync(path.join(wt, 'new.txt'), 'new\n');
    const before = snapshot(wt);
    const info = await worktreeInfo(wt, { env: s.env });
    const dirty = await uncommittedPaths(wt, { env: s.env });
    const seen = await inspectWork(wt, dirty, { env: s.env }, { info, keep: true });
    assert.ok(seen.kept);
    try {
      const r = await parkWorktree(wt, patchPath(), { env: s.env, checked: { info, capture: seen.kept } });
      assert.ok(r);
      assert.equal(r.files, 2);
      assert.deepEqual(await uncommittedPaths(wt, { env: s.env }), []);
      const restored = sh(r.restoreCommand, s.env, s.home);
      assert.equal(restored.code, 0, restored.stderr);
      assert.deepEqual(sorted(snapshot(wt)), sorted(before));
    } finally {
      seen.kept.dispose();
    }
  });

  it('returns null and writes nothing for a clean tree (ignored files are not work)', async () => {
    const wt = fresh(true);
    fs.mkdirSync(path.join(wt, 'build'));
    fs.writeFileSync(path.join(wt, 'build', 'a.o'), 'x');
    fs.writeFileSync(path.join(wt, 'trace.log'), 'x');
    const file = patchPath();
    assert.equal(await parkWorktree(wt, file, { env: s.env }), null);
    assert.equal(fs.existsSync(file), false);
    assert.equal(fs.readFileSync(path.join(wt, 'trace.log'), 'utf8'), 'x');
  });

  it('a file ignored only by a .gitignore the work changed is saved, since the cleaned tree would show it', async () => {
    const wt = fresh(true);
    fs.appendFileSync(path.join(wt, '.gitignore'), '*.tmp\ngen/\n!keep.log\n');
    fs.writeFileSync(path.join(wt, 'notes.tmp'), 'ignored now, visible under HEAD rules\n');
    fs.mkdirSync(path.join(wt, 'gen', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(wt, 'gen', 'deep', 'out.txt'), 'generated\n');
    fs.writeFileSync(path.join(wt, 'keep.log'), 'un-ignored now, ignored under HEAD rules\n');
    fs.writeFileSync(path.join(wt, 'other.log'), 'ignored by both\n');
    const before = sorted(snapshot(wt));
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    const names = (await import('node:child_process')).spawnSync('git', ['apply', '--numstat', '-p2', r.patchFile], {
      cwd: wt,
      env: s.env,
      encoding: 'utf8',
    }).stdout;
    assert.deepEqual(
      names
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[2])
        .sort(),
      ['.gitignore', 'gen/deep/out.txt', 'keep.log', 'notes.tmp'],
    );
    assert.deepEqual(await uncommittedPaths(wt, { env: s.env }), []);
    assert.equal(fs.readFileSync(path.join(wt, 'other.log'), 'utf8'), 'ignored by both\n');
    await removeWorktree(wt, { env: s.env });
    assert.equal(sh(r.restoreAfterRemoveCommand, s.env, s.home).code, 0);
    // other.log was ignored by both rule sets: not work, gone with the worktree.
    assert.deepEqual(
      sorted(snapshot(wt)),
      before.filter(([k]) => k !== JSON.stringify('other.log')),
    );
  });

  it('sees a same-size edit made in the same second as the checkout (git racy-clean entries)', async () => {
    // The index's stat data then still matches the file; only the index file's own
    // mtime tells git to re-read it. Retry until the edit lands in the checkout's second.
    for (let attempt = 0; ; attempt++) {
      const wt = fresh(false);
      const file = path.join(wt, 'text.txt');
      fs.writeFileSync(file, 'ONE\nTWO\nTHREE\n');
      const entry = git(wt, s.env, 'ls-files', '--debug', 'text.txt');
      const st = fs.statSync(file);
      const sec = (what: string) => Number(new RegExp(`${what}: (\\d+):`).exec(entry)?.[1]);
      const racy = sec('mtime') === Math.floor(st.mtimeMs / 1000) && sec('ctime') === Math.floor(st.ctimeMs / 1000);
      if (!racy) {
        assert.ok(attempt < 20, 'could not land an edit in the checkout second');
        continue;
      }
      await sleep(1100); // the temporary index is now made in a later second
      const r = await parkWorktree(wt, patchPath(), { env: s.env });
      assert.ok(r);
      assert.equal(r.files, 1);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\nthree\n');
      assert.equal(sh(r.restoreCommand, s.env, s.home).code, 0);
      assert.equal(fs.readFileSync(file, 'utf8'), 'ONE\nTWO\nTHREE\n');
      return;
    }
  });

  it('in a sparse checkout, files outside the cone are not parked as deletions', async () => {
    const wt = fresh(true);
    git(wt, s.env, 'sparse-checkout', 'set', '--no-cone', '/dir/');
    assert.equal(fs.existsSync(path.join(wt, 'text.txt')), false);
    fs.writeFileSync(path.join(wt, 'dir/other.txt'), 'sparse edit\n');
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    assert.equal(r.files, 1);
    assert.equal(fs.readFileSync(path.join(wt, 'dir/other.txt'), 'utf8'), 'other\n');
    assert.equal(sh(r.restoreCommand, s.env, s.home).code, 0);
    assert.equal(fs.readFileSync(path.join(wt, 'dir/other.txt'), 'utf8'), 'sparse edit\n');
  });

  it('user git config cannot bend the patch (noprefix, renames, external diff, colour, whitespace fix)', async () => {
    const hostile: NodeJS.ProcessEnv = { ...s.env };
    const cfg: Array<[string, string]> = [
      ['diff.noprefix', 'true'],
      ['diff.renames', 'copies'],
      ['diff.external', 'false'],
      ['color.ui', 'always'],
      ['color.diff', 'always'],
      ['apply.whitespace', 'fix'],
      ['diff.mnemonicPrefix', 'true'],
      ['core.quotepath', 'true'],
    ];
    hostile.GIT_CONFIG_COUNT = String(cfg.length);
    cfg.forEach(([k, v], i) => {
      hostile[`GIT_CONFIG_KEY_${i}`] = k;
      hostile[`GIT_CONFIG_VALUE_${i}`] = v;
    });
    const wt = fresh(true);
    fs.writeFileSync(path.join(wt, 'text.txt'), 'trailing spaces   \n\tmixed \t\n');
    git(wt, s.env, 'mv', 'dir/other.txt', 'dir/moved.txt');
    const before = sorted(snapshot(wt));
    const r = await parkWorktree(wt, patchPath(), { env: hostile });
    assert.ok(r);
    await removeWorktree(wt, { env: hostile });
    const restored = sh(r.restoreAfterRemoveCommand, hostile, s.home);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(sorted(snapshot(wt)), before);
  });

  it('folder names ending in a space or tab (a " /" in the diff header) survive binary, empty and mode-only changes', async () => {
    const wt = fresh(true);
    for (const d of ['trail ', 'tab\t', 'x /y ']) fs.mkdirSync(path.join(wt, d), { recursive: true });
    git(wt, s.env, 'mv', 'big.bin', 'trail /big');
    fs.writeFileSync(path.join(wt, 'tab\t/empty'), '');
    fs.writeFileSync(path.join(wt, 'x /y /bin'), pseudoRandom(1, 100));
    git(wt, s.env, 'mv', 'script.sh', 'x /y /script');
    fs.chmodSync(path.join(wt, 'x /y /script'), 0o644);
    const before = sorted(snapshot(wt));
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    await removeWorktree(wt, { env: s.env });
    const restored = sh(r.restoreAfterRemoveCommand, s.env, s.home);
    assert.equal(restored.code, 0, restored.stderr);
    assert.deepEqual(sorted(snapshot(wt)), before);
  });

  it('a name that is not UTF-8 is parked and cleaned by its bytes', async () => {
    const wt = fresh(true);
    const rel = Buffer.concat([b('only-'), NON_UTF8]);
    fs.writeFileSync(join(wt, rel), 'bytes\n');
    assert.equal(gitPaths(wt, s.env, ['add'], [rel]), 0);
    fs.writeFileSync(join(wt, Buffer.concat([b('untracked-'), NON_UTF8])), 'more bytes\n');
    const before = sorted(snapshot(wt));
    const r = await parkWorktree(wt, patchPath(), { env: s.env });
    assert.ok(r);
    assert.deepEqual(await uncommittedPaths(wt, { env: s.env }), []);
    assert.equal(sh(r.restoreCommand, s.env, s.home).code, 0);
    assert.deepEqual(sorted(snapshot(wt)), before);
  });
});
