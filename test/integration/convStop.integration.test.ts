// The stop door, the daemon's graceful stop, and restarts: conversations whose agent is
// gone read `stopped` with their transcripts intact, and `svc conv resume` continues them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { groupMembers } from '../../server/util/processGroup';
import { eventually } from '../helpers/scratch';
import { convScratch, discovery, script, SCRIPT_AGENT } from './convSupport';
import type { ConvScratch } from './convSupport';

/** Starts a script conversation that records its agent's pid (= its process group) and runs `cmd`. */
async function withGroup(s: ConvScratch, title: string, cmd: string): Promise<{ id: number; pgid: number }> {
  const pidFile = path.join(s.proj, `${title}.pid`);
  const id = await s.start(script(`- run: echo $PPID > ${title}.pid`, `- run: ${JSON.stringify(cmd)}`), [
    '--title',
    title,
  ]);
  await s.waitActivity(id, 'working');
  const pgid = await eventually(
    () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0),
    10_000,
    'the pid file',
  );
  await eventually(() => groupMembers(pgid).length >= 2, 10_000, 'the command to run');
  return { id, pgid };
}

describe('the stop door and restarts', function () {
  this.timeout(90_000);
  let s: ConvScratch;

  before(async () => {
    s = await convScratch('conv-stop', {
      config: [
        'harnesses:',
        '  fresh:',
        `    command: ${process.execPath}`,
        `    args: [${SCRIPT_AGENT}]`,
        "    env: {SVC_SCRIPT_NO_RESUME: '1'}",
        '  slow:',
        `    command: ${process.execPath}`,
        `    args: [${SCRIPT_AGENT}]`,
        "    env: {SVC_SCRIPT_INIT_DELAY_MS: '5000'}",
        // An agent that leaves a process in another session holding its stdout: its pipes
        // close 30 s after it exits.
        '  leaky:',
        '    command: /bin/sh',
        `    args: ['-c', 'setsid sleep 30 & echo $! > leak.pid; exec "$0" "$1"', ${JSON.stringify(process.execPath)}, ${JSON.stringify(SCRIPT_AGENT)}]`,
        '',
      ].join('\n'),
    });
  });
  after(async () => s?.dispose());

  it('stops an agent whose run step is `sleep 600` within 10 s, and its whole process group is gone', async () => {
    const { id, pgid } = await withGroup(s, 'sleeper', 'sleep 600');
    const t0 = Date.now();
    assert.equal(await s.ok(['conv', 'stop', String(id)]), `Stopped #${id} (sleeper)\n`);
    const took = Date.now() - t0;
    assert.ok(took < 10_000, `stop took ${took} ms`);
    assert.deepEqual(groupMembers(pgid), []);
    const info = await s.show(id);
    assert.deepEqual([info.activity, info.alive], ['stopped', false]);
    assert.match(await s.log(id), /\[turn ended: cancelled\]/);
  });

  it('a stop returns with the conversation ended, even while a process outside its group keeps its pipes open', async () => {
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'leaky',
      '--model',
      'm1',
      '--title',
      'leaky',
      '--prompt',
      'hi',
    ]);
    const id = Number(/^Conversation #(\d+) /.exec(out)?.[1]);
    const leak = Number(
      await eventually(
        () =>
          fs.existsSync(path.join(s.proj, 'leak.pid')) ? fs.readFileSync(path.join(s.proj, 'leak.pid'), 'utf8') : '',
        10_000,
        'leak.pid',
      ),
    );
    try {
      assert.equal(await s.ok(['conv', 'stop', String(id)]), `Stopped #${id} (leaky)\n`);
      const info = await s.show(id);
      assert.deepEqual([info.activity, info.alive], ['stopped', false]);
    } finally {
      process.kill(leak, 'SIGKILL');
    }
  });

  it('never SIGKILLs on its own: a group ignoring SIGTERM is reported alive; --kill escalates', async () => {
    const { id, pgid } = await withGroup(s, 'stubborn', "trap '' TERM; sleep 600");
    const r = await s.svc(['conv', 'stop', String(id), '--timeout', '2']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `#${id} (stubborn) is still alive after 2 s; escalate with: svc conv stop #${id} --kill\n`);
    assert.ok(groupMembers(pgid).length > 0, 'the group survives without --kill');
    assert.equal(await s.ok(['conv', 'stop', String(id), '--timeout', '2', '--kill']), `Stopped #${id} (stubborn)\n`);
    assert.deepEqual(groupMembers(pgid), []);
  });

  it('stops an agent that is still starting; it reads stopped, not failed-to-start', async () => {
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'slow',
      '--model',
      'm1',
      '--title',
      'early stop',
      '--prompt',
      'hi',
      '--no-wait',
    ]);
    const id = Number(/^Conversation #(\d+) /.exec(out)?.[1]);
    assert.equal(await s.activity(id), 'starting');
    assert.equal(await s.ok(['conv', 'stop', String(id)]), `Stopped #${id} (early-stop)\n`);
    const info = await s.show(id);
    assert.deepEqual([info.activity, info.spawnError], ['stopped', null]);
  });

  it('svc daemon stop and restart refuse while agents are live, saying how many, and change nothing', async () => {
    const busy = await withGroup(s, 'busy-refused', 'sleep 600');
    const idle = await s.start('hello', ['--title', 'quiet-refused']);
    await s.waitActivity(idle, 'idle');
    const pid = discovery(s).pid;
    assert.deepEqual(
      (await s.status()).filter((a) => a.alive).map((a) => a.id),
      [busy.id, idle],
      'the earlier tests left no agent live',
    );
    const stop = await s.svc(['daemon', 'stop']);
    assert.deepEqual(
      [stop.code, stop.stdout, stop.stderr],
      [
        1,
        '',
        `2 live agents would stop with the daemon; svc daemon stop --force stops them (svc conv resume continues each one later)\n`,
      ],
    );
    const restart = await s.svc(['daemon', 'restart']);
    assert.deepEqual(
      [restart.code, restart.stdout, restart.stderr],
      [
        1,
        '',
        `2 live agents would stop with the daemon; svc daemon restart --force stops them (svc conv resume continues each one later)\n`,
      ],
    );
    assert.equal(discovery(s).pid, pid, 'the daemon still runs');
    assert.deepEqual([await s.activity(busy.id), await s.activity(idle)], ['working', 'idle']);
    assert.ok(groupMembers(busy.pgid).length > 0, 'the busy agent still runs');
    await s.ok(['conv', 'stop', String(busy.id)]);
    await s.ok(['conv', 'stop', String(idle)]);
  });

  it('names one live agent in the singular', async () => {
    assert.deepEqual(
      (await s.status()).filter((a) => a.alive),
      [],
    );
    const one = await s.start('hello', ['--title', 'only-one']);
    await s.waitActivity(one, 'idle');
    const stop = await s.svc(['daemon', 'stop']);
    assert.deepEqual(
      [stop.code, stop.stderr],
      [
        1,
        '1 live agent would stop with the daemon; svc daemon stop --force stops it (svc conv resume continues each one later)\n',
      ],
    );
    await s.ok(['conv', 'stop', String(one)]);
  });

  it("the daemon's graceful stop (--force) stops live agents through the stop door", async () => {
    const busy = await withGroup(s, 'busy', 'sleep 600');
    const idle = await s.start('hello', ['--title', 'quiet']);
    await s.waitActivity(idle, 'idle');
    const pid = discovery(s).pid;
    const r = await s.svc(['daemon', 'stop', '--force']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [0, `svc daemon stopped (pid ${pid})\n`, '']);
    assert.deepEqual(groupMembers(busy.pgid), []);
    const a = await s.show(busy.id);
    const b = await s.show(idle);
    assert.deepEqual([a.activity, b.activity], ['stopped', 'stopped']);
    assert.notEqual(a.exitStatus, 'daemon restarted');
  });

  it('after a daemon crash, conversations read stopped with transcripts intact; resume reattaches by session/resume', async () => {
    const id = await s.start(script('- say: remember this line'), ['--title', 'survivor']);
    await s.waitActivity(id, 'idle');
    const d = discovery(s);
    process.kill(d.pid, 'SIGKILL');
    await eventually(
      () => {
        try {
          process.kill(d.pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      10_000,
      'the daemon to die',
    );
    const info = await s.show(id); // starts a new daemon
    assert.deepEqual([info.activity, info.alive, info.exitStatus], ['stopped', false, 'daemon restarted']);
    assert.match(await s.log(id), /\nremember this line\n/);

    assert.equal(await s.ok(['conv', 'resume', 'survivor']), `Conversation #${id} (survivor) in ${s.proj}\n`);
    assert.equal(await s.activity(id), 'idle');
    assert.match(await s.log(id), /\[svc\] resumed session \S+ \(session\/resume\)\n/);
    await s.ok(['tell', String(id), 'still there?']);
    await eventually(async () => /no svc-script block in: still there\?\n$/.test(await s.log(id)), 10_000, 'the reply');
  });

  it('resume starts a fresh session told it is a continuation when the agent offers no reattach', async () => {
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'fresh',
      '--model',
      'm1',
      '--title',
      'fresh one',
      '--prompt',
      script('- say: first life'),
    ]);
    const id = Number(/^Conversation #(\d+) /.exec(out)?.[1]);
    await s.waitActivity(id, 'idle');
    await s.ok(['conv', 'stop', String(id)]);
    await s.ok(['conv', 'resume', String(id)]);
    await s.waitActivity(id, 'idle');
    const log = await s.log(id);
    assert.match(log, /\[svc\] resumed in a fresh session \(the agent offers no reattach\)\n/);
    assert.match(
      log,
      new RegExp(`> You are continuing conversation #${id} \\(fresh-one\\) after its agent was restarted`),
    );
    assert.match(log, /> first life\n/);
  });
});
