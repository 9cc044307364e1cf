// The review convoy with the `script` harness and the local code host:
// 1. `svc review request` (full mode) → all five agents alive (each one's first prompt
//    sent); target ≤ 1.2× the floor plus the shim's own start (issue 43: the request
//    cannot start without the shim), and under 3 s. Timed twice per round: while the earlier run's
//    five are alive (they are retired) and after `svc review abort` (none alive, as at a
//    first review). Floor, interleaved in the same run: five script agents started
//    directly over ACP in parallel, each until its first prompt is sent. The reviewers
//    wait after their first prompt (their review is no part of the start). Also printed:
//    the shim's own start (`svc --version`), which the request includes and the floor
//    does not, and which the target's ratio adds to the floor.
// 2. The parent's `svc review post` → the review visible on the local host (`pr/show`).
//    Floor: the low-level `svc pr review --comment` to visible.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import YAML from 'yaml';
import { rpcOver } from '../shared/client/rpcClient';
import { conversationsList } from '../shared/protocol/conversations';
import { changed } from '../shared/protocol/daemon';
import type { ConversationInfo } from '../shared/protocol/conversations';
import { prShow } from '../shared/protocol/pr';
import { reviewShow } from '../shared/protocol/review';
import { rpcRequest } from '../test/helpers/rpc';
import { git, sleep, SVC_JS } from '../test/helpers/scratch';
import { reviewWorld } from '../test/integration/reviewWorld';
import { directAcpAt } from './acpFloor';
import type { World } from '../test/integration/reviewWorld';
import { loadAverage } from './loadAverage';
import { runBench } from './runBench';

const RUNS = Number(process.env.SVC_BENCH_RUNS ?? 5);
const TARGET = 1.2;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ms = () => Number(process.hrtime.bigint()) / 1e6;

function svc(w: World, args: string[]): string {
  const r = spawnSync(process.execPath, [SVC_JS, ...args], {
    env: w.s.env,
    cwd: w.s.home,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** svc run without blocking this process (the watcher reads on meanwhile): its stdout, and when it exited. */
async function svcAsync(w: World, args: string[]): Promise<{ stdout: string; exited: number }> {
  const r = await w.s.svc(args);
  const exited = ms();
  if (r.code !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
  return { stdout: r.stdout, exited };
}

async function until<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(10);
  }
}

/** An issue with a PR (committed and `svc done` by hand), its reviewers scripted by `ctl`. */
async function issueWithPr(w: World, title: string, ctl: Record<string, string>): Promise<string> {
  const i = await w.issue(title, ctl);
  fs.writeFileSync(path.join(i.workspace, 'feature.txt'), `${title}\n`);
  git(i.workspace, w.s.env, 'add', '.');
  git(i.workspace, w.s.env, 'commit', '-qm', title);
  svc(w, ['done', i.id]);
  return i.id;
}

async function main(): Promise<void> {
  const w = await reviewWorld('bench-review', { mode: 'full' });
  try {
    // 1. request → five alive. What a reviewer does once its first prompt is sent is its
    // review, not the start: here each waits (a timer in the agent, as a real reviewer waits
    // for its model) instead of running the world's scripts, whose shell steps and the
    // parent's `svc review wait` (a second shim) would run while later reviewers still start
    // — the floor's agents are ended at that point. Part 2 puts the scripts back.
    const scripts = ['lane.yaml', 'parent.yaml'].map((f) => path.join(w.s.home, 'scripts', f));
    const kept = scripts.map((f) => fs.readFileSync(f, 'utf8'));
    for (const f of scripts) fs.writeFileSync(f, YAML.stringify([{ sleep: 3_600_000 }]));
    const a = await issueWithPr(w, 'Convoy start', {});
    // Watched as a view watches: one connection, conversations/list re-read when the daemon
    // says conversations changed (the reviewers' titles name their run). Polling instead
    // loads the daemon during the very start it times (review/show reads the PR's live head
    // with git on every call; even conversations/list every 10 ms took a share of a core).
    const { socketPath } = JSON.parse(fs.readFileSync(path.join(w.s.svcHome, 'server.json'), 'utf8')) as {
      socketPath: string;
    };
    const socket = net.connect(socketPath);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const watcher = rpcOver(socket);
    let changes = 0;
    let wake = () => undefined as void;
    watcher.onNotification(changed.method, (p) => {
      if ((p as { topic?: string }).topic !== 'conversations') return;
      changes++;
      wake();
    });
    const fiveAlive = async (runId: string) => {
      const { conversations } = (await watcher.sendRequest(conversationsList.method, {})) as {
        conversations: ConversationInfo[];
      };
      const mine = conversations.filter(
        (x) =>
          x.issueId === a &&
          x.alive &&
          (x.title === `${a} review ${runId} (parent)` || x.title.startsWith(`${a} review ${runId}: `)),
      );
      return mine.length === 5;
    };
    /** Resolves once five of `runId` are alive, re-reading on each change (a 1 s re-read covers a missed one). */
    const alive = async (runId: string): Promise<void> => {
      const end = Date.now() + 60_000;
      for (;;) {
        const seen = changes;
        if (await fiveAlive(runId)) return;
        if (Date.now() > end) throw new Error(`timed out: ${runId} alive`);
        if (changes !== seen) continue; // changed while we read: read again at once
        await new Promise<void>((r) => {
          const t = setTimeout(r, 1000);
          wake = () => (clearTimeout(t), r());
        });
      }
    };
    await alive('r1');
    /**
     * One timed request: until the fifth of its reviewers is seen alive, and until `svc review
     * request` exited. The shim runs beside the watcher, as beside a view (waiting for it to
     * exit first would time its exit and this process's wake-up too); its run is the next one.
     */
    let nextRun = 2;
    const timedRequest = async (into: { convoy: number[]; answered: number[] }) => {
      const runId = `r${nextRun++}`;
      const t0 = ms();
      const shim = svcAsync(w, ['review', 'request', a]);
      const shimFailed = shim.then(() => new Promise<never>(() => undefined)); // settles only when the shim fails
      await Promise.race([alive(runId), shimFailed]);
      into.convoy.push(ms() - t0);
      const { stdout, exited } = await shim;
      if (/^Review (r\d+)/.exec(stdout)?.[1] !== runId) throw new Error(`expected review ${runId}, got: ${stdout}`);
      into.answered.push(exited - t0);
      await sleep(800); // the reviewers' own start-up work, and the earlier run's stop, settle before what runs next
    };
    // A new run while the earlier run's five are alive (a push during a review: they are
    // retired), and one after `svc review abort` (none alive, as at an issue's first review).
    const replacing = { convoy: [] as number[], answered: [] as number[] };
    const fresh = { convoy: [] as number[], answered: [] as number[] };
    const five: number[] = [];
    const shimOnly: number[] = [];
    const floorDir = (await rpcRequest(w.s.svcHome, reviewShow, { issue: a })).issue.workspace;
    for (let n = 0; n < RUNS; n++) {
      await timedRequest(replacing);
      svc(w, ['review', 'abort', a]);
      await sleep(300);
      await timedRequest(fresh);
      // Until the last of the five has its prompt sent (as the measure ends at the fifth
      // alive); their exits after the kill are no part of it.
      const f0 = ms();
      const reached = await Promise.all(Array.from({ length: 5 }, () => directAcpAt(floorDir, 'prompt', 'floor')));
      five.push(Math.max(...reached.map((r) => r.reached)) - f0);
      // The shim's own start, which the request includes and the floor does not: a node
      // process starting (and exiting), no daemon call.
      const s0 = ms();
      shimOnly.push((await svcAsync(w, ['--version'])).exited - s0);
    }
    watcher.dispose();
    svc(w, ['review', 'abort', a]);
    const f = median(five);
    const runs = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
    console.log(
      `floor, five agents started directly over ACP in parallel until each prompt is sent: ${f.toFixed(0)} ms (runs ${runs(five)})`,
    );
    const shim = median(shimOnly);
    console.log(
      `the shim's own start (svc --version, no daemon call), which the request includes and the floor does not: ${shim.toFixed(0)} ms (runs ${runs(shimOnly)}), ${(shim / f).toFixed(2)} of the floor`,
    );
    for (const [what, m] of [
      ["the earlier run's five alive", replacing],
      ['no reviewer alive', fresh],
    ] as const) {
      const c = median(m.convoy);
      const ratio = c / (f + shim);
      console.log(
        `review request → 5 agents alive (full mode, script; ${what}): ${c.toFixed(0)} ms (runs ${runs(m.convoy)}; svc review request exited after ${median(m.answered).toFixed(0)} ms); ratio ${ratio.toFixed(2)} to the floor plus the shim's own start ${(f + shim).toFixed(0)} ms (target ≤ ${TARGET}: ${ratio <= TARGET ? 'met' : 'MISSED'}; < 3000 ms: ${c < 3000 ? 'met' : 'MISSED'}); ${(c / f).toFixed(2)} to the five starts alone; ${loadAverage()}`,
      );
    }

    // 2. post → visible
    scripts.forEach((f, i) => fs.writeFileSync(f, kept[i]));
    const b = await issueWithPr(w, 'Convoy post', { parent: 'HANG' });
    const pr = (await rpcRequest(w.s.svcHome, reviewShow, { issue: b })).pr!.number;
    const posts: number[] = [];
    const floors: number[] = [];
    const reviews = async () =>
      (await rpcRequest(w.s.svcHome, prShow, { project: 'web', pr: String(pr) })).reviews.length;
    for (let n = 0; n < RUNS; n++) {
      const runId = n === 0 ? 'r1' : /^Review (r\d+)/.exec(svc(w, ['review', 'request', b]))![1];
      const ws = (await rpcRequest(w.s.svcHome, reviewShow, { issue: b })).issue.workspace;
      const waitOut = path.join(w.s.home, 'ctl', b, `wait-${runId}.out`);
      await until(
        async () => (fs.existsSync(waitOut) && fs.readFileSync(waitOut, 'utf8').includes('exit 0') ? true : undefined),
        `${runId} lanes done`,
      );
      fs.writeFileSync(
        path.join(ws, '.svc', 'review', runId, 'synthesis.md'),
        '# Verdict: APPROVED\n\n## Summary\nok\n\n## Blockers\nNone.\n\n## Evidence\nread\n\n## Convoy Notes\n- fine\n',
      );
      const before = await reviews();
      let t0 = ms();
      svc(w, ['review', 'post', b, '--run', runId]);
      await until(async () => ((await reviews()) > before ? true : undefined), 'review visible');
      posts.push(ms() - t0);
      t0 = ms();
      svc(w, ['pr', 'review', String(pr), '--project', 'web', '--comment', '--body', 'floor']);
      await until(async () => ((await reviews()) > before + 1 ? true : undefined), 'comment visible');
      floors.push(ms() - t0);
    }
    const p = median(posts);
    const pf = median(floors);
    console.log(
      `review post → review visible on the local host: ${p.toFixed(0)} ms; floor, svc pr review --comment → visible: ${pf.toFixed(0)} ms; ratio ${(p / pf).toFixed(2)}`,
    );
    svc(w, ['review', 'abort', b]);
  } finally {
    await w.s.dispose();
  }
}

runBench(main);
