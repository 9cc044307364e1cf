import * as assert from 'node:assert/strict';
import { CoalescedRun } from '../../extension/connection/coalescedRun';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CoalescedRun (extension/connection/coalescedRun.ts): the views’ and the Conversation panel’s reads', () => {
  it('a burst of requests within the delay makes one run', async () => {
    let runs = 0;
    const c = new CoalescedRun(async () => void runs++, 10);
    for (let i = 0; i < 5; i++) c.request();
    await tick(40);
    assert.equal(runs, 1);
  });

  it('runs never overlap: requests during a run make exactly one more run, after it', async () => {
    const log: string[] = [];
    let release!: () => void;
    let first = true;
    const c = new CoalescedRun(async () => {
      log.push('start');
      if (first) {
        first = false;
        await new Promise<void>((r) => (release = r));
      }
      log.push('end');
    }, 5);
    c.request();
    await tick(20);
    assert.deepEqual(log, ['start']);
    c.request();
    await tick(20);
    c.request();
    await tick(20);
    assert.deepEqual(log, ['start'], 'nothing starts while a run is under way');
    release();
    await tick(30);
    assert.deepEqual(log, ['start', 'end', 'start', 'end']);
  });

  it('now() runs at once, folding a pending request in; nothing runs once disposed', async () => {
    let runs = 0;
    const c = new CoalescedRun(async () => void runs++, 10);
    c.request();
    await c.now();
    await tick(30);
    assert.equal(runs, 1);
    c.request();
    c.dispose();
    await tick(30);
    c.request();
    await c.now();
    assert.equal(runs, 1);
  });
});
