// What happens on the host while its connection is down (lanesRemote.integration.test.ts):
// an agent that dies is reported with its exit status; a stop or reap is refused while the
// host cannot be asked and done over a new connection; output past the relay's bound is lost
// and said exactly, and the conversation goes on.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { ok, startLane } from '../helpers/lanes';
import { eventually } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import type { RemoteSuite } from './lanesRemoteSuite';

/** Deaths, stops, reaps and output while the connection is down. */
export function whileHostUnreachable(get: () => RemoteSuite): void {
  it('an agent that dies while the connection is down is reported as such, with its exit status', async () => {
    const { s, d, w, root, conv, onHost, agentsDir, pidsIn, dropConnection } = get();
    const dies = writeBrief(w.briefs, 'dies.md', [
      { say: 'up' },
      { run: 'while [ ! -f ../die-now ]; do sleep 0.2; done', check: true },
      { exit: 3 },
    ]);
    await startLane(w, { host: 'big', run: 'r1', key: 'dies', role: 'builder', model: 'm', brief: dies });
    await eventually(async () => pidsIn(`${root}/r1-dies`).length >= 2, 60_000, 'the agent waiting on the host');
    await dropConnection();
    await eventually(
      async () => (await conv('r1-dies-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    onHost(`touch ${root}/die-now`);
    await eventually(async () => pidsIn(`${root}/r1-dies`).length === 0, 30_000, 'the agent to exit on the host');
    assert.equal((await conv('r1-dies-builder-i1')).activity, 'working', 'svc cannot know yet');
    await d.resume();
    const ended = await eventually(
      async () => {
        const c = await conv('r1-dies-builder-i1');
        return c.endedAt !== null && c.exitStatus ? c : undefined;
      },
      90_000,
      'svc to reconnect and learn the agent ended',
    );
    assert.equal(ended.exitStatus, 'the agent on host big ended while the connection was lost (exit 3)');
    assert.deepEqual([ended.activity, ended.hostLost, ended.spawnError], ['stopped', null, null]);
    assert.match(
      (await ok(s.svc(['conv', 'log', 'r1-dies-builder-i1']))).stdout,
      /agent ended \(the agent on host big ended while the connection was lost \(exit 3\)\)/,
    );
    // Nothing of it is left running there: svc's relay went once the daemon had the exit.
    assert.equal(onHost(`ls -A ${agentsDir()} | grep -cx '${ended.id}' || true`), '0');
  });

  it('stop and reap of a lane whose connection is down: refused while the host cannot be asked, then done there over a new connection', async () => {
    const { s, d, w, root, conv, onHost, dest, pidsIn, dropConnection } = get();
    const held = writeBrief(w.briefs, 'held.md', [{ say: 'holding' }, { run: 'sleep 600', check: true }]);
    await startLane(w, { host: 'big', run: 'r1', key: 'held', role: 'builder', model: 'm', brief: held });
    await eventually(async () => pidsIn(`${root}/r1-held`).length >= 2, 60_000, 'the agent at work on the host');
    const running = pidsIn(`${root}/r1-held`);
    await dropConnection();
    await eventually(
      async () => (await conv('r1-held-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    const unreachable = new RegExp(
      String.raw`^could not stop #\d+ \(r1-held-builder-i1\) on host big: host big \(${dest()}\) is unreachable \(.*\); .*; it keeps running there under svc's relay until svc reconnects and the stop reaches it\n$`,
    );
    const stop = await s.svc(['lane', 'stop', 'r1-held-builder-i1']);
    assert.equal(stop.code, 1);
    assert.match(stop.stderr, unreachable);
    // Reap asks the host what it would refuse before it stops anything: refused at once, queuing no stop.
    const reap = await s.svc(['lane', 'reap', 'r1-held-builder-i1']);
    assert.equal(reap.code, 1);
    assert.match(reap.stderr, new RegExp(String.raw`^host big \(${dest()}\) is unreachable \(`));
    assert.deepEqual(
      pidsIn(`${root}/r1-held`).filter((p) => running.includes(p)),
      running,
      'nothing was stopped on the host',
    );
    // Once the host answers: the stop door ends the group there, reap checks the host's processes and removes the worktree.
    await d.resume();
    const reaped = await ok(s.svc(['lane', 'reap', 'r1-held-builder-i1']));
    assert.match(reaped.stdout, new RegExp(`removed worktree ${root}/r1-held\\n`));
    assert.deepEqual(pidsIn(`${root}/r1-held`), []);
    assert.equal(onHost(`test -d ${root}/r1-held || echo gone`), 'gone');
    const c = await conv('r1-held-builder-i1');
    assert.deepEqual([c.activity, c.archived, c.hostLost], ['stopped', true, null]);
  });

  it('output past the relay’s bound while disconnected is lost, said exactly; the request waiting for an answer fails with a clear message, the conversation goes on', async () => {
    const { s, d, w, root, conv, onHost, pidsIn, dropConnection } = get();
    // A small bound, through the profile's env (it reaches the relay with the agent's environment).
    const config = YAML.parse(fs.readFileSync(path.join(s.svcHome, 'config.yaml'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      YAML.stringify({ ...config, harnesses: { script: { env: { SVC_RELAY_BUFFER_BYTES: '4000' } } } }),
    );
    const flood = writeBrief(w.briefs, 'flood.md', [
      { say: 'up' },
      {
        run: 'while [ ! -f ../flood ]; do sleep 0.2; done; seq 1 5000; touch "$(git rev-parse --absolute-git-dir)/flooded"',
        check: true,
      },
      { say: 'after the flood' },
      { sleep: 600_000 },
    ]);
    await startLane(w, { host: 'big', run: 'r1', key: 'flood', role: 'builder', model: 'm', brief: flood });
    await eventually(async () => pidsIn(`${root}/r1-flood`).length >= 2, 60_000, 'the agent at work on the host');
    await dropConnection();
    await eventually(
      async () => (await conv('r1-flood-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    onHost(`touch ${root}/flood`);
    await eventually(
      async () => onHost(`test -f "$(git -C ${root}/r1-flood rev-parse --absolute-git-dir)/flooded" && echo y`) === 'y',
      30_000,
      'the flood written while disconnected',
    );
    await d.resume();
    const log = await eventually(
      async () => {
        const text = (await ok(s.svc(['conv', 'log', 'r1-flood-builder-i1']))).stdout;
        return text.includes('\nafter the flood\n') ? text : undefined;
      },
      90_000,
      'svc to reconnect and the turn to go on',
    );
    assert.match(
      log,
      /\n\[svc\] svc's relay on host big kept at most 4000 bytes of the agent's output while the connection was lost; \d+ bytes in \d+ messages? \(session\/update ×\d+\) were lost (at|between) \d\d:\d\d:\d\d UTC( and \d\d:\d\d:\d\d UTC)?; requests waiting for an answer were failed and the turn is cancelled\n/,
    );
    assert.match(
      log,
      /\n\[turn failed: svc's relay on host big kept at most 4000 bytes .*; the answer to this request may have been among them\]\n\[svc\] turn cancelled\n/,
    );
    const c = await conv('r1-flood-builder-i1');
    assert.deepEqual([c.endedAt, c.hostLost], [null, null], 'the conversation goes on');
    await ok(s.svc(['lane', 'stop', 'r1-flood-builder-i1']));
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), YAML.stringify(config));
  });
}
