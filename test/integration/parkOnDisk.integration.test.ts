// `reap --park` restores what was on disk, not what git would call equal: CRLF bytes under
// `* text=auto` (git stores them as LF), permission bits git does not record (0600, 0000,
// 0640 on a tracked file), besides exec bits and symlinks. What a patch cannot carry goes
// beside it in a tar file named in the patch header; the header's restore command, run
// exactly as printed, must give back every byte and mode.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reapLaneDir } from '../../server/reap/reapLaneDir';
import type { ReapPlan } from '../../server/reap/reapLaneDir';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import {
  addWorktree,
  forceRemoveWorktree,
  headerRestoreCommand,
  makeLaneRepo,
  sh,
  snapshot,
  sorted,
} from './parkFixtures';
import type { LaneRepo } from './parkFixtures';

describe('reap --park restores equal on disk', function () {
  let s: Scratch;
  let repo: LaneRepo;
  const worktrees: string[] = [];
  let n = 0;

  before(() => {
    s = makeScratch('park-disk');
    repo = makeLaneRepo(s);
  });
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  function lane(): { plan: ReapPlan; dir: string } {
    const name = `d-k${n++}`;
    const dir = addWorktree(repo, s.env, name, `d/${name}`);
    worktrees.push(dir);
    const plan: ReapPlan = {
      env: s.env,
      conv: { id: 90 + n, name: `${name}-builder-i1` },
      dir,
      kind: 'worktree',
      lanesRoot: repo.lanesRoot,
      park: true,
      keep: false,
      patchFile: path.join(s.svcHome, 'agents', `conv-${name}`, 'parked-20250101T000000Z.patch'),
      stop: async () => true,
      archive: () => undefined,
    };
    return { plan, dir };
  }

  async function parkAndRestore(plan: ReapPlan, dir: string): Promise<string> {
    const before = sorted(snapshot(dir));
    const report = await reapLaneDir(plan);
    assert.equal(fs.existsSync(dir), false);
    assert.ok(report.park);
    const restore = headerRestoreCommand(report.park.patchFile);
    const r = sh(restore, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      sorted(snapshot(dir)),
      before,
      'the restored tree is the tree that was parked, byte for byte and mode for mode',
    );
    return fs.readFileSync(report.park.patchFile, 'utf8').split('\ndiff --git ')[0];
  }

  it('CRLF files under * text=auto come back with their CRLF bytes, an unchanged one too', async () => {
    const { plan, dir } = lane();
    fs.writeFileSync(path.join(dir, '.gitattributes'), '* text=auto\n');
    fs.writeFileSync(path.join(dir, 'unix.txt'), 'lf\nonly\n');
    git(dir, s.env, 'add', '.gitattributes', 'unix.txt');
    git(dir, s.env, 'commit', '--quiet', '-m', 'normalize line endings');
    fs.writeFileSync(path.join(dir, 'windows.txt'), 'one\r\ntwo\r\n');
    fs.writeFileSync(path.join(dir, 'text.txt'), 'edited\r\nwith CRLF\r\n');
    // Git sees no change here (its clean filter gives back the committed LF), yet the
    // restore's checkout would write LF: the rehearsal must check out this path too.
    fs.writeFileSync(path.join(dir, 'unix.txt'), 'lf\r\nonly\r\n');
    const header = await parkAndRestore(plan, dir);
    const tar = plan.patchFile.replace(/\.patch$/, '.files.tar');
    assert.match(
      header,
      new RegExp(
        `^files: ${JSON.stringify(tar).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(exact bytes and permission bits of 3 paths a git patch cannot carry; the restore command extracts it after applying the patch\\)$`,
        'm',
      ),
    );
    assert.equal(fs.readFileSync(path.join(dir, 'windows.txt'), 'latin1'), 'one\r\ntwo\r\n');
    assert.equal(fs.readFileSync(path.join(dir, 'unix.txt'), 'latin1'), 'lf\r\nonly\r\n');
    // The parked work is the user's alone: another user may not read a lane's files from it.
    assert.equal(fs.statSync(tar).mode & 0o777, 0o600);
    assert.equal(fs.statSync(plan.patchFile).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(plan.patchFile)).mode & 0o077, 0);
  });

  it('under core.autocrlf=input (git stores LF, checks out what it stores) changed CRLF files come back with their CRLF bytes', async () => {
    const { plan, dir } = lane();
    git(repo.dir, s.env, 'config', 'core.autocrlf', 'input');
    try {
      fs.writeFileSync(path.join(dir, 'windows.txt'), 'one\r\ntwo\r\n');
      fs.writeFileSync(path.join(dir, 'text.txt'), 'edited\r\nwith CRLF\r\n');
      const header = await parkAndRestore(plan, dir);
      assert.match(header, /\(exact bytes and permission bits of 2 paths a git patch cannot carry;/);
      assert.equal(fs.readFileSync(path.join(dir, 'windows.txt'), 'latin1'), 'one\r\ntwo\r\n');
      assert.equal(fs.readFileSync(path.join(dir, 'text.txt'), 'latin1'), 'edited\r\nwith CRLF\r\n');
    } finally {
      git(repo.dir, s.env, 'config', '--unset', 'core.autocrlf');
    }
  });

  it('permission bits a patch cannot carry: 0600, 0000, 0640 on an unchanged tracked file, 0700', async () => {
    const { plan, dir } = lane();
    const make = (rel: string, data: string, mode: number) => {
      fs.writeFileSync(path.join(dir, rel), data);
      fs.chmodSync(path.join(dir, rel), mode);
    };
    make('secret.txt', 'token\n', 0o600);
    make('locked.txt', 'nobody reads this\n', 0o000);
    make('tool.sh', '#!/bin/sh\n', 0o700);
    fs.chmodSync(path.join(dir, 'dir', 'other.txt'), 0o640);
    fs.writeFileSync(path.join(dir, 'text.txt'), 'a visible edit\n');
    fs.symlinkSync('secret.txt', path.join(dir, 'secret-link'));
    await parkAndRestore(plan, dir);
    const mode = (rel: string) => (fs.lstatSync(path.join(dir, rel)).mode & 0o7777).toString(8);
    assert.deepEqual(['secret.txt', 'locked.txt', 'tool.sh', 'dir/other.txt'].map(mode), ['600', '0', '700', '640']);
  });

  it('folder permission bits (git records no folders): a private 0700 folder of new work, 0750 on a tracked one', async () => {
    const { plan, dir } = lane();
    fs.mkdirSync(path.join(dir, 'private', 'keys'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'private', 'keys', 'id'), 'key\n');
    fs.chmodSync(path.join(dir, 'private'), 0o700);
    fs.chmodSync(path.join(dir, 'dir'), 0o750);
    fs.writeFileSync(path.join(dir, 'text.txt'), 'a visible edit\n');
    const header = await parkAndRestore(plan, dir);
    assert.match(header, /^files: .* \(exact bytes and permission bits of 2 paths a git patch cannot carry;/m);
    const mode = (rel: string) => (fs.lstatSync(path.join(dir, rel)).mode & 0o7777).toString(8);
    assert.deepEqual(['private', 'private/keys', 'dir'].map(mode), [
      '700',
      (0o777 & ~process.umask()).toString(8),
      '750',
    ]);
  });

  it('work git carries exactly needs no file beside the patch', async () => {
    const { plan, dir } = lane();
    fs.writeFileSync(path.join(dir, 'text.txt'), 'plain edit\n');
    const header = await parkAndRestore(plan, dir);
    assert.doesNotMatch(header, /^files: /m);
    assert.equal(fs.existsSync(plan.patchFile.replace(/\.patch$/, '.files.tar')), false);
  });
});
