// `svc lane pick`'s ranking: checks green first, then the newest critic verdict, then fewer
// defects, then the smaller diff; the printed lines name the reasons and the winner's land command.
import * as assert from 'node:assert/strict';
import { pickLines, rankCandidates } from '../../shared/format/pickRanking';
import type { PickCandidate } from '../../shared/format/pickRanking';

const green = { green: true } as const;
const red = (...failed: string[]) => ({ green: false as const, failed });
const c = (key: string, over: Partial<PickCandidate>): PickCandidate => ({
  key,
  lane: `r1-${key}-builder-i1`,
  head: `${key}`.repeat(40).slice(0, 40),
  checks: green,
  verdict: 'PASS',
  defects: 0,
  diffLines: 10,
  ...over,
});

describe('pick ranking', () => {
  it('ranks four candidates with mixed checks and verdicts', () => {
    const ranked = rankCandidates([
      c('a', { checks: red('npm test'), verdict: 'WOWED' }),
      c('b', { verdict: 'NOT_YET', defects: 2 }),
      c('c', { verdict: 'IMPRESSED', diffLines: 90 }),
      c('d', { verdict: 'NOT_YET', defects: 1 }),
    ]);
    assert.deepEqual(
      ranked.map((r) => r.key),
      ['c', 'd', 'b', 'a'],
    );
    assert.deepEqual(pickLines(ranked), [
      '1. c (r1-c-builder-i1 at cccccccccccc): checks green, critic IMPRESSED, diff 90 lines',
      '2. d (r1-d-builder-i1 at dddddddddddd): checks green, critic NOT_YET (1 defect), diff 10 lines',
      '3. b (r1-b-builder-i1 at bbbbbbbbbbbb): checks green, critic NOT_YET (2 defects), diff 10 lines',
      '4. a (r1-a-builder-i1 at aaaaaaaaaaaa): checks red (npm test), critic WOWED, diff 10 lines',
      'land the winner with: svc lane land r1-c-builder-i1',
    ]);
  });

  it('orders every verdict WOWED > IMPRESSED > PASS > NOT_YET > DEFECTS > none', () => {
    const keys = rankCandidates([
      c('none', { verdict: null }),
      c('defects', { verdict: 'DEFECTS' }),
      c('pass', { verdict: 'PASS' }),
      c('wowed', { verdict: 'WOWED' }),
      c('notyet', { verdict: 'NOT_YET' }),
      c('impressed', { verdict: 'IMPRESSED' }),
    ]).map((r) => r.key);
    assert.deepEqual(keys, ['wowed', 'impressed', 'pass', 'notyet', 'defects', 'none']);
  });

  it('breaks equal verdicts by the smaller diff, then by key', () => {
    const keys = rankCandidates([c('z', { diffLines: 5 }), c('y', { diffLines: 50 }), c('x', { diffLines: 5 })]).map(
      (r) => r.key,
    );
    assert.deepEqual(keys, ['x', 'z', 'y']);
  });

  it('offers nothing to land when no candidate is green', () => {
    const lines = pickLines(rankCandidates([c('a', { checks: red('lint', 'npm test') })]));
    assert.deepEqual(lines, [
      '1. a (r1-a-builder-i1 at aaaaaaaaaaaa): checks red (lint, npm test), critic PASS, diff 10 lines',
      'no candidate passes the checks: nothing to land',
    ]);
    assert.deepEqual(pickLines([]), ['no candidate: none of the keys has a done report']);
  });
});
