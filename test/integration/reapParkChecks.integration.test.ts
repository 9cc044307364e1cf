// The checks reap runs around the stop for a --park, against real git: the check before the
// stop captures the work only when a change could be a gitlink (its one refusal there), so
// a staged gitlink and a staged gitlink removal are still refused before anything is
// stopped; the check after the stop keeps its capture for the park to start from.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
import { checkLaneDir } from '../../server/reap/reapChecks';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { addWorktree, forceRemoveWorktree, makeLaneRepo } from './parkFixtures';
import type { LaneRepo } from './parkFixtures';

describe('reap --park: the checks before and after the stop', function () {
  let s: Scratch;
  let repo: LaneRepo;
  let n = 0;
  const worktrees: string[] = [];

  before(() => {
    s = makeScratch('park-checks');
    repo = makeLaneRepo(s);
  });
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  const fresh = () => {
    const name = `pc-${n++}`;
    const wt = addWorktree(repo, s.env, name, `lane/${name}`);
    worktrees.push(wt);
    return fs.realpathSync(wt);
  };
  const check = (dir: string, afterStop: boolean) =>
    checkLaneDir({
      env: s.env,
      dir,
      lanesRoot: repo.lanesRoot,
      kind: 'worktree',
      park: true,
      ...(afterStop ? { processes: {} } : {}),
    });
  const refusedBeforeStop = async (wt: string, gitlink: string) => {
    const e = await check(wt, false).then(
      () => assert.fail('expected a parkUnsupported refusal'),
      (err: unknown) => err,
    );
    assert.ok(SvcError.is(e, 'parkUnsupported'), String(e));
    assert.equal(
      e.message,
      `${wt} holds a nested git repository or submodule change at ${gitlink}; a patch cannot save it: commit or move it, then reap again`,
    );
  };
  const scratchFolders = (wt: string) =>
    fs
      .readdirSync(git(wt, s.env, 'rev-parse', '--absolute-git-dir').trim())
      .filter((f) => f.startsWith('svc-'))
      .sort();

  it('before the stop, a dirty tree with no gitlink anywhere passes without a capture', async () => {
    const wt = fresh();
    fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
    const state = await check(wt, false);
    assert.deepEqual(
      { dirty: state.dirty, large: state.large, parkStart: state.parkStart },
      { dirty: true, large: null, parkStart: null },
    );
    assert.deepEqual(scratchFolders(wt), []);
  });

  it('before the stop, a staged gitlink is refused', async () => {
    const wt = fresh();
    // Its folder stands, empty, as a submodule's does before it is checked out.
    fs.mkdirSync(path.join(wt, 'vendor', 'sub'), { recursive: true });
    git(wt, s.env, 'update-index', '--add', '--cacheinfo', `160000,${repo.base},vendor/sub`);
    await refusedBeforeStop(wt, 'vendor/sub');
  });

  it('before the stop, a staged removal of a committed gitlink is refused', async () => {
    const wt = fresh();
    git(wt, s.env, 'update-index', '--add', '--cacheinfo', `160000,${repo.base},vendor/sub`);
    git(wt, s.env, 'commit', '-q', '-m', 'a submodule entry');
    git(wt, s.env, 'rm', '-q', '--cached', 'vendor/sub');
    await refusedBeforeStop(wt, 'vendor/sub');
  });

  it('after the stop, the capture is kept for the park and its scratch folder goes with dispose', async () => {
    const wt = fresh();
    fs.writeFileSync(path.join(wt, 'text.txt'), 'changed\n');
    fs.writeFileSync(path.join(wt, 'new.txt'), 'new\n');
    const state = await check(wt, true);
    assert.equal(state.dirty, true);
    const kept = state.parkStart?.capture;
    assert.ok(kept);
    assert.equal(state.parkStart?.info.top, wt);
    assert.deepEqual(kept.work.changes.map((c) => `${c.status} ${c.path.toString('utf8')}`).sort(), [
      'A new.txt',
      'M text.txt',
    ]);
    assert.equal(scratchFolders(wt).length, 1);
    kept.dispose();
    assert.deepEqual(scratchFolders(wt), []);
  });
});
