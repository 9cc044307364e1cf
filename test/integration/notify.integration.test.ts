// Notify targets (config.yaml notify:) through the real daemon, against a local HTTP
// server on 127.0.0.1: each new inbox item reaches each target that wants its kind once;
// 500s are retried with the same event; a daemon restart while an event is held in flight
// sends it again, once, and nothing acknowledged is ever sent twice; payloads and headers
// carry no secret (the target's own Authorization header aside) and no caller key; a
// target that keeps failing is given up and shown in svc doctor; an agent cannot send
// through a target or change the configuration. The retry base is shortened to 5 ms
// (SVC_NOTIFY_RETRY_BASE_MS in the daemon's environment).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DoctorReport } from '../../shared/protocol/doctor';
import { startHttpSink } from '../helpers/httpSink';
import type { HttpSink, SinkRequest } from '../helpers/httpSink';
import { laneEnv } from '../helpers/laneEnv';
import { laneWorld, ok } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const SECRET = 'notify-secret-5f1d2c9a';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('notify targets', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let sink: HttpSink;
  const ids: Record<string, number> = {};

  const writeTargets = (extra: object[] = []) =>
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      JSON.stringify({
        notify: [
          { name: 'hook', kind: 'webhook', url: sink.url('/hook'), kinds: ['failed-start'], secret: SECRET },
          { name: 'ntfy', kind: 'ntfy', url: sink.url('/ntfy'), kinds: ['failed-start'] },
          { name: 'slack', kind: 'slack', url: sink.url('/slack?x=1'), kinds: ['failed-start'] },
          ...extra,
        ],
      }),
    );
  /** A conversation that fails to start (no claude adapter here): a failed-start inbox item. */
  const failedStart = async (title: string): Promise<number> => {
    const r = await s.svc([
      'conv',
      'new',
      '--project',
      'proj',
      '--harness',
      'claude',
      '--model',
      'opus',
      '--title',
      title,
      '--prompt',
      'hi',
    ]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    return Number(/^Conversation #(\d+) /.exec(r.stdout)?.[1]);
  };
  const of = (target: string, id: number): SinkRequest[] =>
    sink.to(target).filter((r) => String(r.headers['x-svc-event']).startsWith(`failed-${id}@`));

  before(async () => {
    sink = await startHttpSink();
    s = makeScratch('notify');
    s.env.SVC_NOTIFY_RETRY_BASE_MS = '5';
    w = await laneWorld(s);
    writeTargets();
  });
  after(async () => {
    await s.dispose();
    await sink.close();
  });

  it('sends each new item once to every target wanting its kind, with what decides it and no secret', async () => {
    const id = (ids.a = await failedStart('no claude a'));
    await eventually(
      () => of('/hook', id).length && of('/ntfy', id).length && of('/slack?x=1', id).length,
      20_000,
      'all three targets told',
    );
    // Other changes make the daemon re-read the inbox; nothing is sent again.
    await ok(s.svc(['conv', 'list']));
    await sleep(2500); // past the daemon's one-second coalescing of inbox re-reads
    assert.deepEqual([of('/hook', id).length, of('/ntfy', id).length, of('/slack?x=1', id).length], [1, 1, 1]);

    const [hook] = of('/hook', id);
    const event = String(hook.headers['x-svc-event']);
    assert.match(event, new RegExp(`^failed-${id}@\\d+$`));
    assert.equal(hook.headers.authorization, `Bearer ${SECRET}`);
    assert.equal(hook.headers['content-type'], 'application/json');
    const body = JSON.parse(hook.body) as Record<string, unknown>;
    assert.match(String(body.age), /^\d+s$/);
    assert.deepEqual(
      { ...body, since: 0, age: 0, title: String(body.title).split(':')[0] },
      {
        source: 'svc',
        event,
        kind: 'failed-start',
        item: `failed-${id}`,
        title: 'failed to start',
        lines: [],
        conversation: { id, name: 'no-claude-a' },
        lane: null,
        run: null,
        project: 'proj',
        host: null,
        since: 0,
        age: 0,
        choices: [],
        command: 'svc conv resume no-claude-a',
      },
    );

    const [ntfy] = of('/ntfy', id);
    assert.equal(ntfy.headers.authorization, undefined, 'a target without a secret gets no Authorization');
    assert.match(String(ntfy.headers.title), new RegExp(`^svc failed-start: #${id} no-claude-a - proj \\(\\d+s\\)$`));
    assert.equal(ntfy.headers.tags, 'svc,failed-start');
    assert.match(ntfy.body, /^failed to start: .+\n-> svc conv resume no-claude-a$/);
    const [slack] = of('/slack?x=1', id);
    const text = (JSON.parse(slack.body) as { text: string }).text;
    assert.match(
      text,
      new RegExp(
        `^\\*svc failed-start\\* · #${id} no-claude-a · proj · \\d+s\\nfailed to start: .+\\n\`svc conv resume no-claude-a\`$`,
      ),
    );

    // No secret anywhere but the target's own Authorization header; no caller key or agent credential at all.
    const callerKey = fs.readFileSync(path.join(s.svcHome, 'caller.key'), 'utf8').trim();
    const credential = laneEnv(s, { id: w.rootId }).SVC_CALLER_TOKEN!;
    for (const r of [hook, ntfy, slack]) {
      const { authorization: _auth, ...rest } = r.headers;
      const seen = r.body + JSON.stringify(rest);
      for (const secret of [SECRET, callerKey, credential])
        assert.ok(!seen.includes(secret), `${r.path} carries no secret`);
    }
    assert.ok(
      !fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8').includes(SECRET),
      'the log holds no secret',
    );
  });

  it('retries a 500 with the same event until acknowledged, then sends it no more', async () => {
    let fails = 2;
    sink.answer = (r) =>
      r.path === '/hook' && r.headers['x-svc-event']?.includes(`failed-${ids.b}@`) && fails-- > 0 ? 500 : 200;
    const id = (ids.b = await failedStart('no claude b'));
    await eventually(() => of('/hook', id).length >= 3, 20_000, 'three attempts');
    await sleep(1000);
    const tries = of('/hook', id);
    assert.equal(tries.length, 3);
    assert.equal(new Set(tries.map((r) => r.headers['x-svc-event'])).size, 1, 'one event, tried three times');
    assert.equal(new Set(tries.map((r) => JSON.parse(r.body).event as string)).size, 1);
    assert.deepEqual([of('/ntfy', id).length, of('/slack?x=1', id).length], [1, 1]);
    sink.answer = () => 200;
  });

  it('sends an event held in flight by a daemon restart again after it, once; nothing acknowledged twice', async () => {
    sink.answer = (r) => (r.path === '/hook' && of('/hook', ids.c).length === 1 ? 'hold' : 200);
    const id = (ids.c = await failedStart('no claude c'));
    await eventually(() => of('/hook', id).length === 1, 20_000, 'the held attempt');
    const before = { a: of('/hook', ids.a).length, b: of('/hook', ids.b).length };
    await ok(s.svc(['daemon', 'restart', '--force']));
    await eventually(() => of('/hook', id)[0].cut, 20_000, 'the held request cut by the stop');
    await ok(s.svc(['daemon', 'status']));
    await eventually(() => of('/hook', id).length === 2, 20_000, 'sent again after the restart');
    const [held, again] = of('/hook', id);
    assert.equal(held.headers['x-svc-event'], again.headers['x-svc-event']);
    // Once more: acknowledged events stay acknowledged.
    await ok(s.svc(['daemon', 'restart', '--force']));
    await ok(s.svc(['conv', 'list']));
    await sleep(2500); // past the daemon's one-second coalescing of inbox re-reads
    assert.deepEqual(
      [of('/hook', id).length, of('/hook', ids.a).length, of('/hook', ids.b).length],
      [2, before.a, before.b],
    );
    assert.deepEqual([of('/ntfy', id).length, of('/slack?x=1', id).length], [1, 1]);
    sink.answer = () => 200;
  });

  it('gives up on a target that keeps failing, and svc doctor shows it with the last error', async () => {
    sink.answer = (r) => (r.path === '/down' ? 500 : 200);
    // A target added later is told of the items waiting now: a, b and c.
    writeTargets([{ name: 'down', kind: 'webhook', url: sink.url('/down'), kinds: ['failed-start'] }]);
    await eventually(() => sink.to('/down').length >= 30, 30_000, 'thirty attempts at down');
    const report = await eventually(
      async () => {
        const r = JSON.parse((await s.svc(['doctor', '--json'])).stdout) as DoctorReport;
        const down = r.checks.find((c) => c.area === 'notify' && c.subject === 'down');
        return down?.status === 'problem' && down.text.includes(' 0 pending') ? r : undefined;
      },
      40_000,
      'target down given up',
    );
    assert.equal(sink.to('/down').length, 30, 'ten attempts for each of three events');
    assert.deepEqual(
      report.checks.filter((c) => c.area === 'notify'),
      [
        {
          area: 'notify',
          subject: 'hook',
          status: 'ok',
          text: 'target hook (webhook, kinds: failed-start): 3 sent, 0 pending',
          fix: null,
        },
        {
          area: 'notify',
          subject: 'ntfy',
          status: 'ok',
          text: 'target ntfy (ntfy, kinds: failed-start): 3 sent, 0 pending',
          fix: null,
        },
        {
          area: 'notify',
          subject: 'slack',
          status: 'ok',
          text: 'target slack (slack, kinds: failed-start): 3 sent, 0 pending',
          fix: null,
        },
        {
          area: 'notify',
          subject: 'down',
          status: 'problem',
          text: 'target down (webhook, kinds: failed-start): 0 sent, 0 pending, 3 given up (retried 10 times, or refused by the target); last error: HTTP 500',
          fix: "check notify target down's url and secret in ~/.svc/config.yaml, then svc notify test down",
        },
      ],
    );
    const text = (await s.svc(['doctor'])).stdout;
    assert.match(
      text,
      /\nnotify targets\n {2}ok {7}target hook .*\n[\s\S]* {2}PROBLEM {2}target down \(webhook, kinds: failed-start\): 0 sent, 0 pending, 3 given up/,
    );
    assert.ok(!text.includes(SECRET) && !text.includes(sink.url('/')), 'doctor shows neither secret nor url');
  });

  it('svc notify test is the person’s: a test notice for them, refused to an agent, as config changes are', async () => {
    const sent = await ok(s.svc(['notify', 'test', 'hook']));
    assert.equal(sent.stdout, 'Sent a test notice to hook (webhook): HTTP 200\n');
    const last = sink.to('/hook').at(-1)!;
    assert.equal(last.headers.authorization, `Bearer ${SECRET}`);
    assert.equal((JSON.parse(last.body) as { kind: string }).kind, 'test');

    const failing = await s.svc(['notify', 'test', 'down']);
    assert.deepEqual(
      [failing.code, failing.stdout, failing.stderr],
      [1, '', 'the test notice to down (webhook) was not acknowledged: HTTP 500\n'],
    );
    const unknown = await s.svc(['notify', 'test', 'nope']);
    assert.equal(unknown.code, 1);
    assert.equal(
      unknown.stderr,
      "no notify target 'nope' in ~/.svc/config.yaml (configured: hook, ntfy, slack, down)\n",
    );

    const count = sink.requests.length;
    const agent = laneEnv(s, { id: w.rootId });
    const refused = await s.svc(['notify', 'test', 'hook'], { env: agent });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `^an agent may not send through a notify target \\(svc notify test\\): only the person may; you are agent #${w.rootId} \\([^)]+\\) — ask the person\\n$`,
      ),
    );
    const config = await s.svc(['config', 'set', 'roles.builder.model', 'other'], { env: agent });
    assert.equal(config.code, 1);
    assert.match(config.stderr, /^an agent may not change svc configuration \(svc config set\): only the person may; /);
    await sleep(300);
    assert.equal(sink.requests.length, count, 'nothing sent for the agent');
  });
});
