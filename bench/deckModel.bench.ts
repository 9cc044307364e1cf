// The Command Deck over 2,000 conversations, as the window gets it: the daemon's
// conversations/list and lanes/list answers read over its socket (a real daemon whose store
// holds the conversations, lanes and critics' reports), then the extension's tree model:
// the answers joined (deckRows), placed (buildDeck with convoys: lanes under launchers,
// critics under the builder they judge, successors under their source), and the merge into
// the tree shown that decides which rows the provider refreshes (treeMerge.ts). Target: under 200 ms in all.
// The floor is JSON.parse of the same two answers, which any client pays to receive them.
// Then the same at 200, 2,000 and 10,000 conversations, with the time split into the
// daemon's answers and the model, to show how each grows (no faster than linearly).
// Run: npm run bench -- deckModel (SVC_BENCH_DECK_SIZES=200,2000 for fewer sizes)
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { buildDeck } from '../extension/commandDeck/deckModel';
import type { DeckNode } from '../extension/commandDeck/deckModel';
import { mergeTree } from '../extension/commandDeck/treeMerge';
import { deckRows } from '../extension/commandDeck/deckRows';
import { rpcOver } from '../shared/client/rpcClient';
import type { RpcConnection } from '../shared/client/rpcClient';
import type { ConversationInfo } from '../shared/protocol/conversations';
import type { LaneRecord } from '../shared/protocol/lanes';
import { makeRepo, makeScratch } from '../test/helpers/scratch';
import { median } from './acpFloor';
import { runBench } from './runBench';

const CONVERSATIONS = Number(process.env.SVC_BENCH_CONVERSATIONS ?? 2000);
const SIZES = (process.env.SVC_BENCH_DECK_SIZES ?? '200,2000,10000').split(',').map(Number);
const TARGET_MS = 200;

function time<T>(fn: () => T): { ms: number; value: T } {
  const t = process.hrtime.bigint();
  const value = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, value };
}

interface Conv {
  id: number;
  name: string;
  title: string;
  kind: string;
  parentId: number | null;
  issueId: string | null;
}
interface Lane {
  id: number;
  run: string;
  key: string;
  role: 'builder' | 'critic';
  judged: string | null;
}

/** Roots with eight builders and their critics (each with a verdict) and a successor each; reviewers at the top. */
function world(n: number): { conversations: Conv[]; lanes: Lane[] } {
  const conversations: Conv[] = [];
  const lanes: Lane[] = [];
  let id = 0;
  const add = (o: Partial<Conv>): Conv => {
    const c: Conv = {
      id: ++id,
      name: `c${id}`,
      title: `conversation ${id}`,
      kind: 'root',
      parentId: null,
      issueId: null,
      ...o,
    };
    conversations.push(c);
    return c;
  };
  while (id < n) {
    const root = add({});
    const run = `r${root.id}`;
    for (let k = 0; k < 8 && id < n; k++) {
      const b = add({ kind: 'lane', parentId: root.id });
      lanes.push({ id: b.id, run, key: `k${k}`, role: 'builder', judged: null });
      if (id < n)
        lanes.push({
          id: add({ kind: 'lane', parentId: root.id }).id,
          run,
          key: `k${k}`,
          role: 'critic',
          judged: `k${k}`,
        });
    }
    if (id < n) add({ kind: 'successor', parentId: root.id });
    if (id < n) add({ kind: 'agent', name: `agent-p-${id}-review`, issueId: `P-${id}` });
  }
  return { conversations, lanes };
}

/** A first prompt of a lane brief's usual size (a few KB). */
const brief = (id: number) => `# Brief ${id}\n\n${'Build the thing, test it, report. '.repeat(100)}\n`;

/** A parked patch as `svc lane reap --park` writes it: its header, then the diff. */
function parkedPatch(worktree: string, branch: string): string {
  return [
    'svc parked patch: uncommitted work saved by `svc lane reap --park`.',
    `worktree: ${JSON.stringify(worktree)}`,
    `branch: ${JSON.stringify(branch)}`,
    `head: ${'a'.repeat(40)}`,
    'paths: 1',
    `restore: ${JSON.stringify(`git -C ${worktree} apply parked.patch`)}`,
    `restore in place: ${JSON.stringify(`git -C ${worktree} apply parked.patch`)}`,
    '',
    'diff --git a/f b/f',
    '--- a/f',
    '+++ b/f',
    '@@ -1 +1 @@',
    '-a',
    '+b',
    '',
  ].join('\n');
}

/**
 * Writes each conversation's folder as a daemon leaves it (its harness log; a lane's brief),
 * and a parked patch beside every 50th builder's brief: the deck's lane list looks into each
 * lane's folder for parked patches.
 */
function seedAgents(agentsDir: string, w: ReturnType<typeof world>, lanesRoot: string): void {
  const lanes = new Map(w.lanes.map((l) => [l.id, l]));
  let builders = 0;
  for (const c of w.conversations) {
    const dir = path.join(agentsDir, `conv-${c.name}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'harness.log'), 'started\n');
    const l = lanes.get(c.id);
    if (!l) continue;
    fs.writeFileSync(path.join(dir, 'lane-brief.md'), brief(c.id));
    if (l.role === 'builder' && builders++ % 50 === 0) {
      const worktree = path.join(lanesRoot, `${l.run}-${l.key}`);
      fs.writeFileSync(path.join(dir, 'parked-20261127T120000Z.patch'), parkedPatch(worktree, `${l.run}/${l.key}`));
    }
  }
}

/** Writes the world into a stopped daemon's store: conversations ended, critics' done reports with verdicts. */
function seed(dbFile: string, w: ReturnType<typeof world>, cwd: string, lanesRoot: string): void {
  const db = new Database(dbFile);
  const now = Date.now();
  const conv = db.prepare(
    `INSERT INTO conversations (id, name, title, kind, parent_id, project, cwd, harness, model, issue_id, first_prompt, created_at, started_at, ended_at, exit_status)
     VALUES (?, ?, ?, ?, ?, 'p', ?, 'script', 'm', ?, ?, ?, ?, ?, 'exited 0')`,
  );
  const lane = db.prepare(
    `INSERT INTO lanes (conv_id, project, run_key, lane_key, role, iteration, judged_key, judged_iteration, git_backed, branch, dir, lanes_root, created_at)
     VALUES (?, 'p', ?, ?, ?, 1, ?, ?, 1, ?, ?, ?, ?)`,
  );
  const report = db.prepare(
    `INSERT INTO reports (store_key, conv_id, seq, status, body, verdict, defects, created_at) VALUES (?, ?, 1, 'done', 'judged', 'NOT_YET', 2, ?)`,
  );
  db.transaction(() => {
    for (const c of w.conversations)
      conv.run(
        c.id,
        c.name,
        c.title,
        c.kind,
        c.parentId,
        cwd,
        c.issueId,
        brief(c.id),
        now + c.id,
        now + c.id,
        now + c.id + 1,
      );
    for (const l of w.lanes) {
      const dir = path.join(lanesRoot, `${l.run}-${l.key}${l.role === 'critic' ? '-critic-i1' : ''}`);
      lane.run(
        l.id,
        l.run,
        l.key,
        l.role,
        l.judged,
        l.judged ? 1 : null,
        l.role === 'builder' ? `${l.run}/${l.key}` : null,
        dir,
        lanesRoot,
        now + l.id,
      );
      if (l.role === 'critic') report.run(`conv-c${l.id}`, l.id, now + l.id);
    }
  })();
  db.close();
}

interface Measure {
  n: number;
  lanes: number;
  /** Lanes listed with a parked patch (the bench parks one for every 50th builder). */
  parked: number;
  top: number;
  conversations: number;
  lanesList: number;
  parse: number;
  model: number;
  total: number;
}

/** A daemon holding a world of `n` conversations; the deck read `runs` times, medians. */
async function measure(n: number, runs: number): Promise<Measure> {
  const s = makeScratch(`bench-deck-${n}`);
  try {
    const { dir } = makeRepo(s, 'p');
    const r = await s.svc(['project', 'add', 'p', dir]);
    if (r.code !== 0) throw new Error(r.stderr);
    await s.svc(['daemon', 'stop']);
    const w = world(n);
    seed(path.join(s.svcHome, 'svc.db'), w, dir, `${dir}-lanes`);
    seedAgents(path.join(s.svcHome, 'agents'), w, `${dir}-lanes`);
    // Starts the daemon on the seeded store (SVC_BENCH_DAEMON_PROFILE=<dir>: with a CPU profile written there when it stops).
    const prof = process.env.SVC_BENCH_DAEMON_PROFILE;
    const env = prof
      ? {
          ...s.env,
          SVC_BENCH_DAEMON_PROFILE: path.resolve(prof),
          NODE_OPTIONS: `--require=${path.join(__dirname, 'daemonProfile.cjs')}`,
        }
      : s.env;
    const started = await s.svc(['daemon', 'status'], { env });
    if (started.code !== 0) throw new Error(started.stderr);
    const { socketPath } = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as {
      socketPath: string;
    };
    const socket = net.connect(socketPath);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const c: RpcConnection = rpcOver(socket);
    let shown: DeckNode[] = [];
    const read = async () => {
      const cl = await timeAsync(
        () => c.sendRequest('conversations/list', { all: true }) as Promise<{ conversations: ConversationInfo[] }>,
      );
      const ll = await timeAsync(() => c.sendRequest('lanes/list', {}) as Promise<{ lanes: LaneRecord[] }>);
      const m = time(() => {
        const roots = buildDeck(deckRows(cl.value.conversations, ll.value.lanes), { convoys: true, reviews: [] });
        // The provider refreshes only the rows that changed: it merges the new tree into the one shown.
        shown = mergeTree(shown, roots).roots;
        return roots;
      });
      return { cl, ll, m };
    };
    await read(); // warm: the daemon's statements, the JIT
    const t: Record<keyof Omit<Measure, 'n' | 'lanes' | 'parked' | 'top'>, number[]> = {
      conversations: [],
      lanesList: [],
      parse: [],
      model: [],
      total: [],
    };
    let top = 0;
    let lanes = 0;
    let parked = 0;
    for (let i = 0; i < runs; i++) {
      const { cl, ll, m } = await read();
      const [cj, lj] = [JSON.stringify(cl.value), JSON.stringify(ll.value)];
      t.parse.push(time(() => (JSON.parse(cj), JSON.parse(lj))).ms);
      t.conversations.push(cl.ms);
      t.lanesList.push(ll.ms);
      t.model.push(m.ms);
      t.total.push(cl.ms + ll.ms + m.ms);
      top = m.value.length;
      lanes = ll.value.lanes.length;
      parked = ll.value.lanes.filter((l) => l.parked.length > 0).length;
    }
    c.dispose();
    return {
      n,
      lanes,
      parked,
      top,
      conversations: median(t.conversations),
      lanesList: median(t.lanesList),
      parse: median(t.parse),
      model: median(t.model),
      total: median(t.total),
    };
  } finally {
    await s.dispose();
  }
}

async function main(): Promise<void> {
  const f = (x: number) => x.toFixed(1);
  const m = await measure(CONVERSATIONS, 15);
  console.log(
    `Command Deck (${m.top} top-level rows) of ${m.n} conversations and ${m.lanes} lanes, daemon answers to tree: ${f(m.total)} ms median of 15 (target < ${TARGET_MS} ms: ${m.total < TARGET_MS ? 'met' : 'MISSED'}); ` +
      `conversations/list ${f(m.conversations)} ms + lanes/list ${f(m.lanesList)} ms + model ${f(m.model)} ms; floor JSON.parse of the two answers ${f(m.parse)} ms; ratio ${(m.total / m.parse).toFixed(2)}`,
  );
  const scale: Measure[] = [];
  for (const n of SIZES) scale.push(n === CONVERSATIONS ? m : await measure(n, n >= 10_000 ? 5 : 9));
  for (const r of scale) {
    console.log(
      `  deck at ${r.n} conversations (${r.lanes} lanes, ${r.parked} with a parked patch): ${f(r.total)} ms = conversations/list ${f(r.conversations)} + lanes/list ${f(r.lanesList)} + model ${f(r.model)} (floor ${f(r.parse)} ms)`,
    );
  }
  const [a, b] = [scale[0], scale[scale.length - 1]];
  const per = (x: number, y: number) => (y / x / (b.n / a.n)).toFixed(2);
  console.log(
    `deck growth ${a.n} → ${b.n} conversations (×${b.n / a.n}): total ×${(b.total / a.total).toFixed(1)}, per conversation ${per(a.total, b.total)} ` +
      `(conversations/list ${per(a.conversations, b.conversations)}, lanes/list ${per(a.lanesList, b.lanesList)}, model ${per(a.model, b.model)}; floor ${per(a.parse, b.parse)}; 1.00 is linear, above it grows faster)`,
  );
}

runBench(main);
