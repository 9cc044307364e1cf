// Conversations on the script harness:
//  1. `svc conv new --harness script` (bin/svc, as a user runs it) to `idle` (first turn
//     done), median of 10, against the floor of `svc --version` (the shim's own start) plus
//     driving the same agent directly over ACP (spawn, initialize, session/new, one prompt)
//     with no daemon in between (acpFloor.ts). Target ≤ 1.10×.
//  2. 20 conversations started at once (20 `svc conv new` processes) until all are idle.
//  3. Daemon RSS with 50 live script conversations: must stay under 250 MB. Also printed at
//     10 and 200 live, to show how it grows (it should grow no faster than linearly; the
//     floor is the daemon's RSS with none).
// Run: npm run build && npx tsx bench/conversations.bench.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { conversationsNew, conversationsShow } from '../shared/protocol/conversations';
import type { ConversationInfo } from '../shared/protocol/conversations';
import { changed } from '../shared/protocol/daemon';
import { git, makeScratch, REPO, run } from '../test/helpers/scratch';
import type { Scratch } from '../test/helpers/scratch';
import { discovery, rpc } from '../test/integration/convSupport';
import { directAcp, median, ms } from './acpFloor';
import { loadAverage } from './loadAverage';
import { runBench } from './runBench';

// What a user or an agent runs: the package's bin (Node's compile cache where Node has one).
const SVC_BIN = path.join(REPO, 'bin', 'svc');
const RSS_LIMIT_MB = 250;
const TARGET = 1.1;

/** Resolves when every id in `ids` (filled in as they are created) is idle. */
function watchIdle(c: MessageConnection): { until(ids: Set<number>, n: number): Promise<number> } {
  const idle = new Set<number>();
  let waiter: (() => void) | undefined;
  c.onNotification(changed.method, async (p: { topic: string; id?: number }) => {
    if (p.topic !== 'conversations' || typeof p.id !== 'number' || idle.has(p.id)) return;
    const info = await c.sendRequest<ConversationInfo>(conversationsShow.method, { conv: String(p.id) });
    if (info.activity === 'idle' && info.startedAt !== null) {
      idle.add(p.id);
      waiter?.();
    }
  });
  return {
    until(ids, n) {
      return new Promise((resolve) => {
        const check = () => {
          if (ids.size >= n && [...ids].every((id) => idle.has(id))) resolve(ms());
        };
        waiter = check;
        check();
      });
    },
  };
}

async function svcNew(s: Scratch, title: string): Promise<number> {
  const r = await run(
    process.execPath,
    [
      SVC_BIN,
      'conv',
      'new',
      '--project',
      'b',
      '--harness',
      'script',
      '--model',
      'm',
      '--title',
      title,
      '--prompt',
      'hi',
      '--no-wait',
      '--json',
    ],
    { env: s.env, cwd: s.home },
  );
  if (r.code !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { conversation: { id: number } }).conversation.id;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const s = makeScratch('bench-conv');
  const proj = path.join(s.home, 'proj');
  fs.mkdirSync(proj);
  git(proj, s.env, 'init', '--quiet', '--initial-branch=main');
  try {
    await s.svc(['project', 'add', 'b', proj]);
    const c = await rpc(s);
    const watch = watchIdle(c);
    const rssNone = rssMb(discovery(s).pid);

    // 1. conv new → idle, median of 10, against the direct ACP floor.
    // Interleaved, so a change of the machine's load between them moves both alike.
    const floors: number[] = [];
    const singles: number[] = [];
    for (let i = 0; i < 10; i++) {
      const v0 = ms();
      const v = await run(process.execPath, [SVC_BIN, '--version'], { env: s.env, cwd: s.home });
      if (v.code !== 0) throw new Error(v.stderr);
      floors.push(ms() - v0 + (await directAcp(proj)));
      const t0 = ms();
      const id = await svcNew(s, `single ${i}`);
      singles.push((await watch.until(new Set([id]), 1)) - t0);
    }
    const rss10 = rssMb(discovery(s).pid); // the ten singles are live and idle
    const one = median(singles);
    const floor = median(floors);
    console.log(
      `svc conv new → idle (median of 10): ${one.toFixed(0)} ms; floor svc --version + direct ACP: ${floor.toFixed(0)} ms; ratio ${(one / floor).toFixed(2)} (target ≤ ${TARGET}: ${one / floor <= TARGET ? 'met' : 'MISSED'}); ${loadAverage()}`,
    );

    // 2. 20 at once.
    const t0 = ms();
    const ids = new Set<number>();
    await Promise.all(Array.from({ length: 20 }, (_, i) => svcNew(s, `burst ${i}`).then((id) => ids.add(id))));
    const all = (await watch.until(ids, 20)) - t0;
    console.log(
      `20 conversations started at once: all idle after ${all.toFixed(0)} ms (${(all / 20).toFixed(0)} ms each; ratio to 20 × floor ${(all / (20 * floor)).toFixed(2)})`,
    );

    // 3. RSS with 50 and 200 live conversations (the 30 live so far, then more over RPC).
    const live = new Set<number>([...ids]);
    const grow = async (to: number): Promise<number> => {
      for (let n = live.size + 10; n < to; n++) {
        const r = await c.sendRequest<{ conversation: { id: number } }>(conversationsNew.method, {
          project: 'b',
          harness: 'script',
          model: 'm',
          title: `rss ${n}`,
          prompt: 'hi',
          noWait: true,
        });
        live.add(r.conversation.id);
      }
      await watch.until(live, to - 10);
      return rssMb(discovery(s).pid);
    };
    const rss = await grow(50);
    console.log(`daemon RSS with 50 live script conversations: ${rss.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB)`);
    const top = Number(process.env.SVC_BENCH_RSS_TOP ?? 200);
    const rssTop = await grow(top);
    const per = (mb: number, n: number) => ((mb - rssNone) / n).toFixed(2);
    console.log(
      `daemon RSS by live conversations: none ${rssNone.toFixed(0)} MB, 10 ${rss10.toFixed(0)} MB, 50 ${rss.toFixed(0)} MB, ${top} ${rssTop.toFixed(0)} MB; ` +
        `growth over none per conversation: ${per(rss10, 10)} MB at 10, ${per(rss, 50)} at 50, ${per(rssTop, top)} at ${top}; ` +
        `ratio ${((rssTop - rssNone) / top / Math.max((rss - rssNone) / 50, 0.01)).toFixed(2)} of ${top} to 50 per conversation (above 1 grows faster than linearly; sub-MB growth is within the noise)`,
    );
    c.end();
    if (!(rss < RSS_LIMIT_MB)) process.exitCode = 1;
  } finally {
    await s.dispose();
  }
}

runBench(main);
