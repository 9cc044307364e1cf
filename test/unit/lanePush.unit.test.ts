// The lane ref policy of pushes through svc (server/lanes/lanePush.ts) and the remote
// helper's side of git's protocol (cli/remoteHelperProtocol.ts), word for word.
import * as assert from 'node:assert/strict';
import { listAnswer, parsePushLine, pushAnswer } from '../../cli/remoteHelperProtocol';
import { refPolicy } from '../../server/lanes/lanePush';
import type { RefFacts } from '../../server/lanes/lanePush';
import type { LaneRow } from '../../server/lanes/laneStore';

const lane = (role: LaneRow['role'], branch: string | null) => ({ name: `r-k-${role}-i1`, role, branch }) as LaneRow;
const SHA = 'a'.repeat(40);

describe('lane ref policy', () => {
  const owners: Record<string, RefFacts['owners']> = {
    'r/k': [{ name: 'r-k-builder-i1', mine: true }],
    'r/sib': [{ name: 'r-sib-builder-i1', mine: false }],
  };
  const facts = (branch: string): RefFacts => ({ base: 'main', owners: owners[branch] ?? [] });
  const judge = (l: LaneRow, ref: string, force = false, sha: string | null = SHA) =>
    refPolicy({ sha, ref, force }, l, facts);

  it('lets a lane update, force or delete its own branch', () => {
    const b = lane('builder', 'r/k');
    assert.equal(judge(b, 'refs/heads/r/k'), undefined);
    assert.equal(judge(b, 'refs/heads/r/k', true), undefined);
    assert.equal(judge(b, 'refs/heads/r/k', false, null), undefined);
  });

  it('refuses the base branch to every lane, however it is moved', () => {
    const words =
      'no lane moves the base branch main (lane r-k-orchestrator-i1 is an orchestrator lane); it changes only by a merged PR';
    const o = { ...lane('orchestrator', null), name: 'r-k-orchestrator-i1' };
    for (const [force, sha] of [
      [false, SHA],
      [true, SHA],
      [false, null],
    ] as const)
      assert.equal(judge(o, 'refs/heads/main', force, sha), words);
  });

  it("refuses a sibling's branch, a new branch and anything but a branch", () => {
    const b = lane('builder', 'r/k');
    assert.equal(
      judge(b, 'refs/heads/r/sib'),
      "r/sib is lane r-sib-builder-i1's branch; a builder lane pushes only its own branch r/k",
    );
    assert.equal(
      judge(b, 'refs/heads/new'),
      'new is no branch of this lane; a builder lane pushes only its own branch r/k',
    );
    assert.equal(judge(b, 'refs/tags/v1'), 'svc pushes branches only (refs/heads/...); refs/tags/v1 is not one');
    assert.equal(
      judge(lane('critic', null), 'refs/heads/r/k2'),
      'r/k2 is no branch of this lane; a critic lane pushes only no branch (it has none of its own)',
    );
  });
});

describe('git-remote-svc protocol', () => {
  it('reads push lines, with force and delete', () => {
    assert.deepEqual(parsePushLine('push +HEAD:refs/heads/x'), { force: true, src: 'HEAD', dst: 'refs/heads/x' });
    assert.deepEqual(parsePushLine('push :refs/heads/x'), { force: false, src: '', dst: 'refs/heads/x' });
    assert.equal(parsePushLine('push nothing'), undefined);
  });

  it('lists the remote from ls-remote, leaving out peeled tags', () => {
    const ls = `${SHA}\tHEAD\n${SHA}\trefs/heads/main\n${SHA}\trefs/tags/v1^{}\n`;
    assert.equal(listAnswer(ls), `${SHA} HEAD\n${SHA} refs/heads/main\n\n`);
    assert.equal(listAnswer(''), '\n');
  });

  it('answers each ref on one line, then a blank line', () => {
    assert.equal(
      pushAnswer([
        { ref: 'refs/heads/a', ok: true },
        { ref: 'refs/heads/b', ok: false, error: 'two\nlines' },
      ]),
      'ok refs/heads/a\nerror refs/heads/b two lines\n\n',
    );
  });
});
