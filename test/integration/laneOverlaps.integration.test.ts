// The overlap forecast, derived at read time: two live builders of one project that change the
// same path relative to the base see each other in `svc lane show` (its line and `--json`), and
// stop seeing each other once they no longer do; a branch that conflicts with its base is marked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('lanes: the overlap forecast at read time', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let aDir: string;
  let bDir: string;

  before(async () => {
    s = makeScratch('overlaps');
    w = await laneWorld(s);
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
    await startLane(w, { run: 'r1', key: 'a', role: 'builder', model: 'm', brief: idle });
    await startLane(w, { run: 'r1', key: 'b', role: 'builder', model: 'm', brief: idle });
    aDir = path.join(`${w.repo}-lanes`, 'r1-a');
    bDir = path.join(`${w.repo}-lanes`, 'r1-b');
  });
  after(async () => s.dispose());

  const shown = async (key: string): Promise<{ lines: string[]; lane: LaneRecord }> => {
    const r = await ok(s.svc(['lane', 'show', '--run', 'r1', '--key', key, '--json']));
    const j = JSON.parse(r.stdout) as { lines: string[]; lanes: LaneRecord[] };
    return { lines: j.lines, lane: j.lanes[0] };
  };
  const showText = async (key: string) => (await ok(s.svc(['lane', 'show', '--run', 'r1', '--key', key]))).stdout;

  it('has no overlap while the builders change different paths', async () => {
    fs.writeFileSync(path.join(aDir, 'only-a.txt'), 'a\n');
    fs.writeFileSync(path.join(bDir, 'only-b.txt'), 'b\n');
    assert.deepEqual((await shown('a')).lane.overlaps, []);
    assert.deepEqual((await shown('b')).lane.overlaps, []);
    assert.doesNotMatch(await showText('a'), /overlaps with/);
  });

  it('names the other builder and the shared paths once both change one (untracked and committed)', async () => {
    // a commits shared.txt; b only writes it in its worktree.
    fs.writeFileSync(path.join(aDir, 'shared.txt'), 'from a\n');
    git(aDir, s.env, 'add', 'shared.txt');
    git(aDir, s.env, 'commit', '-q', '-m', 'a: shared');
    fs.writeFileSync(path.join(bDir, 'shared.txt'), 'from b\n');
    const a = await shown('a');
    assert.deepEqual(a.lane.overlaps, [{ key: 'b', lane: 'r1-b-builder-i1', run: 'r1', paths: ['shared.txt'] }]);
    assert.deepEqual((await shown('b')).lane.overlaps, [
      { key: 'a', lane: 'r1-a-builder-i1', run: 'r1', paths: ['shared.txt'] },
    ]);
    assert.ok(a.lines.includes('    overlaps with b (r1-b-builder-i1): shared.txt'), a.lines.join('\n'));
    assert.match(await showText('a'), /^ {4}overlaps with b \(r1-b-builder-i1\): shared\.txt$/m);
    // The list's columns stay the specification's: no overlap column.
    const list = (await ok(s.svc(['lane', 'list', '--run', 'r1']))).stdout;
    assert.doesNotMatch(list, /overlap|shared\.txt/i);
  });

  it('forgets the overlap when the worktree changes back', async () => {
    fs.rmSync(path.join(bDir, 'shared.txt'));
    assert.deepEqual((await shown('a')).lane.overlaps, []);
    assert.deepEqual((await shown('b')).lane.overlaps, []);
    assert.doesNotMatch(await showText('a'), /overlaps with/);
  });

  it('marks a branch that conflicts with its base, and unmarks it when it no longer does', async () => {
    assert.equal((await shown('a')).lane.baseConflict, null);
    // The base moves on the remote with another content of shared.txt; the project fetches it.
    const other = path.join(s.home, 'other');
    git(s.home, s.env, 'clone', '-q', w.origin, other);
    fs.writeFileSync(path.join(other, 'shared.txt'), 'from main\n');
    git(other, s.env, 'add', 'shared.txt');
    git(other, s.env, 'commit', '-q', '-m', 'main: shared');
    git(other, s.env, 'push', '-q', 'origin', 'HEAD:main');
    git(w.repo, s.env, 'fetch', '-q', 'origin');
    const a = await shown('a');
    assert.deepEqual(a.lane.baseConflict, { paths: ['shared.txt'] });
    assert.ok(a.lines.includes('    conflicts with its base: shared.txt'), a.lines.join('\n'));
    assert.equal((await shown('b')).lane.baseConflict, null);
    // a takes main's content over its own: it merges cleanly again.
    git(aDir, s.env, 'fetch', '-q', 'origin');
    git(aDir, s.env, 'merge', '-q', '-X', 'theirs', '-m', 'take main', 'origin/main');
    assert.equal((await shown('a')).lane.baseConflict, null);
  });
});
