import * as assert from 'node:assert/strict';
import { activityOf, activityOfRow, isLive, STARTING_WINDOW_MS } from '../../shared/activity';
import type { ActivityFacts } from '../../shared/activity';

const base: ActivityFacts = {
  spawnError: false,
  alive: false,
  needsYou: false,
  working: false,
  ended: false,
  archived: false,
  createdAt: 1_000_000,
  now: 1_000_000,
};
const f = (o: Partial<ActivityFacts>): ActivityFacts => ({ ...base, ...o });

describe('activity rule set (docs/spec.md: first matching row wins)', () => {
  it('failed-to-start beats everything but archive', () => {
    assert.equal(activityOf(f({ spawnError: true, alive: true, needsYou: true, working: true })), 'failed-to-start');
  });
  it('needs-you when alive and asking, even while a prompt is in flight', () => {
    assert.equal(activityOf(f({ alive: true, needsYou: true, working: true })), 'needs-you');
  });
  it('needs-you needs a live harness', () => {
    assert.equal(activityOf(f({ alive: false, needsYou: true, ended: true })), 'stopped');
  });
  it('working when alive with a prompt in flight', () => {
    assert.equal(activityOf(f({ alive: true, working: true })), 'working');
  });
  it('idle when alive and nothing else', () => {
    assert.equal(activityOf(f({ alive: true })), 'idle');
  });
  it('starting when not alive, not ended, younger than 3 minutes', () => {
    assert.equal(activityOf(f({ now: base.createdAt + STARTING_WINDOW_MS - 1 })), 'starting');
  });
  it('stopped once 3 minutes have passed without coming alive', () => {
    assert.equal(activityOf(f({ now: base.createdAt + STARTING_WINDOW_MS })), 'stopped');
  });
  it('stopped when ended, however young', () => {
    assert.equal(activityOf(f({ ended: true })), 'stopped');
  });
  it('stopped always for an archived lane', () => {
    assert.equal(activityOf(f({ archived: true, alive: true, working: true })), 'stopped');
    assert.equal(activityOf(f({ archived: true, spawnError: true })), 'stopped');
  });
  it('live means starting, idle, working or needs-you', () => {
    assert.deepEqual(
      (['failed-to-start', 'needs-you', 'working', 'idle', 'starting', 'stopped'] as const).filter(isLive),
      ['needs-you', 'working', 'idle', 'starting'],
    );
  });

  it('reads a stored row: spawn error, end and archive times, creation time', () => {
    const row = { spawnError: null, endedAt: null, archivedAt: null, createdAt: 1000 };
    const dead = { alive: false, needsYou: false, working: false };
    assert.equal(activityOfRow(row, dead, 1000 + 1), 'starting');
    assert.equal(activityOfRow({ ...row, endedAt: 2000 }, dead, 2001), 'stopped');
    assert.equal(activityOfRow({ ...row, spawnError: 'no binary' }, dead, 1001), 'failed-to-start');
    assert.equal(
      activityOfRow({ ...row, archivedAt: 3000 }, { alive: true, needsYou: true, working: true }, 3001),
      'stopped',
    );
    assert.equal(activityOfRow(row, { alive: true, needsYou: false, working: true }, 5000), 'working');
  });
});
