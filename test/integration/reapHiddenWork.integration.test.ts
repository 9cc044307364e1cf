// Work that `git status` does not show must not be deleted by reap: edits under
// assume-unchanged or skip-worktree, files hidden by svc's review entries in the shared
// info/exclude, and files hidden by a .gitignore the lane wrote itself. A plain reap
// refuses (listing them and why git status misses them); --park saves them and the
// restore command printed in the patch header brings back every byte.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcError } from '../../shared/errors';
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

const HINT =
  'to commit them, clear the bit (git update-index --no-assume-unchanged <path>, or --no-skip-worktree) and add ignored files with git add --force';

describe('reap: work git status cannot see is never deleted', function () {
  let s: Scratch;
  let repo: LaneRepo;
  const worktrees: string[] = [];
  let n = 0;
  let exclude: string;

  before(() => {
    s = makeScratch('reap-hidden');
    repo = makeLaneRepo(s);
    exclude = path.join(repo.dir, '.git', 'info', 'exclude');
  });
  afterEach(() => fs.rmSync(exclude, { force: true }));
  after(async () => {
    for (const wt of worktrees) forceRemoveWorktree(repo, s.env, wt);
    await s.dispose();
  });

  function lane(): { plan: ReapPlan; dir: string; archived: () => number } {
    const name = `h-k${n++}`;
    const dir = addWorktree(repo, s.env, name, `h/${name}`);
    worktrees.push(dir);
    let archived = 0;
    const plan: ReapPlan = {
      env: s.env,
      conv: { id: 70 + n, name: `${name}-builder-i1` },
      dir,
      kind: 'worktree',
      lanesRoot: repo.lanesRoot,
      park: false,
      keep: false,
      patchFile: path.join(s.svcHome, 'agents', `conv-${name}`, 'parked-20250101T000000Z.patch'),
      stop: async () => true,
      archive: () => {
        archived++;
      },
    };
    return { plan, dir, archived: () => archived };
  }

  /** Plain reap refuses with `lines`; then --park saves, and the header's command restores byte for byte. */
  async function refusedThenParked(l: ReturnType<typeof lane>, lines: string[], hidden: number): Promise<void> {
    const before = sorted(snapshot(l.dir));
    const e = await reapLaneDir(l.plan).then(
      () => assert.fail('a plain reap must refuse'),
      (err: unknown) => err,
    );
    assert.ok(SvcError.is(e, 'dirty'), String(e));
    assert.equal(e.kind, 'refused');
    const count = `${lines.length} ${lines.length === 1 ? 'path' : 'paths'}`;
    const hint = hidden ? `\ngit status does not show ${hidden} of them: ${HINT}` : '';
    assert.equal(
      e.message,
      `${l.dir} has uncommitted work (${count}); commit it, or reap with --park to save it to a patch\n${lines.map((x) => `  ${x}`).join('\n')}${hint}`,
    );
    assert.equal(l.archived(), 0);
    assert.deepEqual(sorted(snapshot(l.dir)), before, 'a refused reap touches nothing');

    const report = await reapLaneDir({ ...l.plan, park: true });
    assert.equal(fs.existsSync(l.dir), false);
    assert.ok(report.park);
    const restore = headerRestoreCommand(report.park.patchFile);
    assert.equal(restore, report.park.restoreAfterRemoveCommand);
    const r = sh(restore, s.env, s.home);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(sorted(snapshot(l.dir)), before);
  }

  it('an edit under assume-unchanged', async () => {
    const l = lane();
    git(l.dir, s.env, 'update-index', '--assume-unchanged', 'text.txt');
    fs.writeFileSync(path.join(l.dir, 'text.txt'), 'hidden edit\n');
    assert.equal(git(l.dir, s.env, 'status', '--porcelain'), '', 'git status does not see it');
    await refusedThenParked(l, [' M text.txt (hidden from git status by assume-unchanged)'], 1);
  });

  it('an edit under skip-worktree (no sparse checkout), beside a visible one', async () => {
    const l = lane();
    git(l.dir, s.env, 'update-index', '--skip-worktree', 'dir/other.txt');
    fs.writeFileSync(path.join(l.dir, 'dir/other.txt'), 'hidden edit\n');
    fs.writeFileSync(path.join(l.dir, 'empty.txt'), 'visible edit\n');
    await refusedThenParked(l, [' M empty.txt', ' M dir/other.txt (hidden from git status by skip-worktree)'], 1);
  });

  it('a staged file under skip-worktree whose folder became a file (git refuses to reset such an entry)', async () => {
    const l = lane();
    fs.mkdirSync(path.join(l.dir, 'staged'));
    fs.writeFileSync(path.join(l.dir, 'staged', 'a'), '');
    git(l.dir, s.env, 'add', 'staged/a');
    git(l.dir, s.env, 'update-index', '--skip-worktree', 'staged/a');
    fs.rmSync(path.join(l.dir, 'staged'), { recursive: true });
    fs.writeFileSync(path.join(l.dir, 'staged'), 'now a file\n');
    await refusedThenParked(l, ['A  staged/a', '?? staged'], 0);
  });

  it("review.md and .svc/notes.md hidden by svc's entries in the shared info/exclude", async () => {
    const l = lane();
    fs.writeFileSync(
      exclude,
      '# svc: review files and the pipeline journal are never part of the work\n.svc/\nreview.md\n',
    );
    fs.writeFileSync(path.join(l.dir, 'review.md'), 'my review notes\n');
    fs.mkdirSync(path.join(l.dir, '.svc'));
    fs.writeFileSync(path.join(l.dir, '.svc', 'notes.md'), 'notes\n');
    assert.equal(git(l.dir, s.env, 'status', '--porcelain'), '', 'git status does not see them');
    await refusedThenParked(
      l,
      [
        '!! .svc/notes.md (ignored, but not by a .gitignore committed at the base commit of the lane)',
        '!! review.md (ignored, but not by a .gitignore committed at the base commit of the lane)',
      ],
      2,
    );
  });

  it('an untracked .gitignore holding * beside an untracked work.txt', async () => {
    const l = lane();
    fs.mkdirSync(path.join(l.dir, 'notes'));
    fs.writeFileSync(path.join(l.dir, 'notes', '.gitignore'), '*\n');
    fs.writeFileSync(path.join(l.dir, 'notes', 'work.txt'), 'a day of work\n');
    assert.equal(git(l.dir, s.env, 'status', '--porcelain'), '', 'git status does not see them');
    await refusedThenParked(
      l,
      [
        '!! notes/.gitignore (ignored, but not by a .gitignore committed at the base commit of the lane)',
        '!! notes/work.txt (ignored, but not by a .gitignore committed at the base commit of the lane)',
      ],
      2,
    );
  });

  it('files the committed .gitignore ignores are regenerable: reaped without a refusal', async () => {
    const l = lane();
    fs.mkdirSync(path.join(l.dir, 'build'));
    fs.writeFileSync(path.join(l.dir, 'build', 'out.o'), 'object\n');
    fs.writeFileSync(path.join(l.dir, 'run.log'), 'log\n');
    const report = await reapLaneDir(l.plan);
    assert.equal(report.removed, 'worktree');
    assert.equal(report.park, null);
  });

  it('a sparse checkout is not work: its absent skip-worktree files are not refused over', async () => {
    const l = lane();
    git(l.dir, s.env, 'sparse-checkout', 'set', '--no-cone', '/dir/');
    assert.equal(fs.existsSync(path.join(l.dir, 'text.txt')), false);
    const report = await reapLaneDir(l.plan);
    assert.equal(report.removed, 'worktree');
  });
});
