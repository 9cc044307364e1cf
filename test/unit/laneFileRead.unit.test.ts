// A file a lane wrote, read by the daemon (server/util/laneFileRead.ts): only inside the
// lane's folders, one answer for every path outside them (there or not), never through a
// link, never a FIFO or device (which would block the daemon), never more than its limit.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { laneFolders, LaneFileError, readLaneFile } from '../../server/util/laneFileRead';
import type { LaneFileProblem } from '../../server/util/laneFileRead';
import { readReviewFile } from '../../server/review/reviewFiles';

const REPO = path.resolve(__dirname, '..', '..');

describe('lane files read by the daemon (server/util/laneFileRead.ts)', () => {
  const root = path.join(REPO, '.scratch', `unit-lanefileread-${process.pid}`);
  const lane = path.join(root, 'lane');
  const gitDir = path.join(root, 'repo.git', 'worktrees', 'lane');
  const hidden = path.join(root, 'home', '.svc');
  const problem = (f: () => unknown): LaneFileProblem => {
    try {
      f();
    } catch (e) {
      if (e instanceof LaneFileError) return e.problem;
      throw e;
    }
    assert.fail('it was read');
  };

  before(() => {
    for (const d of [lane, gitDir, hidden]) fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(lane, '.git'), `gitdir: ${gitDir}\n`);
    fs.writeFileSync(path.join(hidden, 'caller.key'), 'secret');
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads a regular file in the directory or its git dir', () => {
    const roots = laneFolders(lane);
    assert.deepEqual(roots, [lane, gitDir]);
    fs.writeFileSync(path.join(gitDir, 'verdict.json'), '{"defects":[]}');
    assert.equal(readLaneFile(path.join(gitDir, 'verdict.json'), roots, 100), '{"defects":[]}');
    fs.writeFileSync(path.join(lane, 'brief.md'), 'brief ✓');
    assert.equal(readLaneFile(path.join(lane, 'brief.md'), roots, 100), 'brief ✓');
  });

  it('answers the same for a hidden file, a missing one, and links to either', () => {
    const roots = laneFolders(lane);
    fs.symlinkSync(path.join(hidden, 'caller.key'), path.join(lane, 'to-key'));
    fs.symlinkSync(path.join(hidden, 'nothing'), path.join(lane, 'to-nothing'));
    fs.symlinkSync(hidden, path.join(lane, 'to-home'));
    for (const f of [
      path.join(hidden, 'caller.key'),
      path.join(hidden, 'nothing'),
      path.join(lane, 'to-key'),
      path.join(lane, 'to-nothing'),
      path.join(lane, 'to-home', 'caller.key'),
      path.join(lane, '..', 'home', '.svc', 'caller.key'),
      'relative/verdict.json',
    ])
      assert.deepEqual(
        problem(() => readLaneFile(f, roots, 100)),
        { kind: 'outside' },
        f,
      );
  });

  it('never opens a FIFO or device for reading, and refuses what is over the limit', () => {
    const roots = laneFolders(lane);
    const fifo = path.join(gitDir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    assert.deepEqual(
      problem(() => readLaneFile(fifo, roots, 100)),
      { kind: 'notRegular' },
    );
    assert.ok(Date.now() - started < 1000, 'a FIFO with no writer does not block');
    assert.deepEqual(
      problem(() => readLaneFile(lane, roots, 100)),
      { kind: 'notRegular' },
    );
    assert.deepEqual(
      problem(() => readLaneFile('/dev/zero', ['/dev'], 100)),
      { kind: 'notRegular' },
    );
    fs.writeFileSync(path.join(lane, 'big'), 'x'.repeat(101));
    assert.deepEqual(
      problem(() => readLaneFile(path.join(lane, 'big'), roots, 100)),
      { kind: 'tooLarge', max: 100 },
    );
    assert.deepEqual(
      problem(() => readLaneFile(path.join(lane, 'gone'), roots, 100)),
      {
        kind: 'unreadable',
        code: 'ENOENT',
      },
    );
  });

  it('reads a review file of the workspace; a link out of it or a FIFO reads as no report', () => {
    const ws = path.join(root, 'workspace');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'review.md'), '# Verdict: APPROVED\n');
    assert.equal(readReviewFile(ws, path.join(ws, 'review.md')), '# Verdict: APPROVED\n');
    fs.symlinkSync(path.join(hidden, 'caller.key'), path.join(ws, 'security.md'));
    assert.equal(readReviewFile(ws, path.join(ws, 'security.md')), null);
    execFileSync('mkfifo', [path.join(ws, 'synthesis.md')]);
    assert.equal(readReviewFile(ws, path.join(ws, 'synthesis.md')), null);
    assert.equal(readReviewFile(ws, path.join(ws, 'missing.md')), null);
  });
});
