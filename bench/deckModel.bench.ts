// The Command Deck's first level for 2,000 conversations (then 200, 2,000 and 10,000, to
// show how it grows), in the extension's tree model:
// the daemon's conversations/list and lanes/list answers joined (deckRows), placed
// (buildDeck: lanes under launchers, critics under the builder they judge, successors under
// their source) and the first level's items described. Target: under 200 ms. The floor is
// JSON.parse of the same two answers, which the client pays to receive them at all.
// Run: npx tsx bench/deckModel.bench.ts
import { buildDeck } from '../extension/commandDeck/deckModel';
import { deckRows } from '../extension/commandDeck/deckRows';
import type { ConversationInfo } from '../shared/protocol/conversations';
import type { LaneRecord } from '../shared/protocol/lanes';

const CONVERSATIONS = Number(process.env.SVC_BENCH_CONVERSATIONS ?? 2000);
const SIZES = [200, 2000, 10_000];
const RUNS = 15;
const TARGET_MS = 200;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => unknown): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Roots with eight builders, their critics and a successor each; reviewers at the top. */
function world(n: number): { conversations: ConversationInfo[]; lanes: LaneRecord[] } {
  const conversations: ConversationInfo[] = [];
  const lanes: LaneRecord[] = [];
  const base = { cwd: '/w', harness: 'script', model: 'm', effort: null, issueId: null, alive: true, archived: false, createdAt: 0, startedAt: 0, endedAt: null, exitStatus: null, spawnError: null, cost: null, queued: 0, ask: null, project: 'p' };
  let id = 0;
  const add = (o: Partial<ConversationInfo>) => {
    const c = { ...base, id: ++id, name: `c${id}`, title: `conversation ${id}`, kind: 'root', parentId: null, activity: 'idle', ...o } as ConversationInfo;
    conversations.push(c);
    return c;
  };
  while (id < n) {
    const root = add({});
    const run = `r${root.id}`;
    for (let k = 0; k < 8 && id < n; k++) {
      const b = add({ kind: 'lane', parentId: root.id, activity: 'working' });
      const c = id < n ? add({ kind: 'lane', parentId: root.id, activity: 'stopped' }) : undefined;
      lanes.push({ id: b.id, name: b.name, title: b.title, project: 'p', run, key: `k${k}`, role: 'builder', iteration: 1, respawn: 0, parentId: root.id, cwd: '/w', host: null, gitBacked: true, judged: null, activity: 'working', spawnError: null, archived: false, reaped: false, createdAt: 0, endedAt: null, model: 'm', harness: 'script', effort: null, cost: null, report: null, verdict: c ? { verdict: 'NOT_YET', defects: 2, by: c.id, verdictFile: null } : null, git: { branch: `${run}/k${k}`, headSha: 'abc', ahead: 1, dirty: k % 2 === 0 }, gitUnavailable: null });
      if (c) lanes.push({ ...lanes[lanes.length - 1], id: c.id, name: c.name, role: 'critic', judged: { key: `k${k}`, iteration: 1 }, activity: 'stopped', verdict: { verdict: 'NOT_YET', defects: 2, by: c.id, verdictFile: null }, git: { branch: null, headSha: 'abc', ahead: null, dirty: false } });
    }
    if (id < n) add({ kind: 'successor', parentId: root.id });
    if (id < n) add({ kind: 'agent', name: `agent-p-${id}-review`, issueId: `P-${id}` });
  }
  return { conversations, lanes };
}

/** Median build time and JSON.parse floor for a world of `n` conversations. */
function measure(n: number): { t: number; f: number; first: number; conversations: number; lanes: number } {
  const { conversations, lanes } = world(n);
  const convJson = JSON.stringify({ conversations });
  const laneJson = JSON.stringify({ lanes });
  let first = 0;
  const build = () => {
    const rows = deckRows(conversations, lanes);
    const top = buildDeck(rows);
    // What getChildren() hands VS Code for the first level: each item's label, description, icon and context value.
    first = top.map((n) => n.label.length + n.description.length + n.contextValue.length + n.icon.id.length).length;
  };
  build(); // warm
  const times: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(time(build));
    floor.push(time(() => (JSON.parse(convJson), JSON.parse(laneJson))));
  }
  return { t: median(times), f: median(floor), first, conversations: conversations.length, lanes: lanes.length };
}

const m = measure(CONVERSATIONS);
console.log(`Command Deck first level (${m.first} top-level rows) of ${m.conversations} conversations and ${m.lanes} lanes: ${m.t.toFixed(1)} ms median of ${RUNS} (target < ${TARGET_MS} ms); floor JSON.parse of the two answers ${m.f.toFixed(1)} ms; ratio ${(m.t / m.f).toFixed(2)}`);
if (m.t >= TARGET_MS) {
  console.error(`over target: ${m.t.toFixed(1)} ms ≥ ${TARGET_MS} ms`);
  process.exitCode = 1;
}
const scale = SIZES.map((n) => ({ n, ...measure(n) }));
for (const r of scale) console.log(`  deck model at ${r.n} conversations: ${r.t.toFixed(1)} ms (floor ${r.f.toFixed(1)} ms, ratio to floor ${(r.t / r.f).toFixed(2)})`);
const [a, b] = [scale[0], scale[scale.length - 1]];
console.log(`deck model growth ${a.n} → ${b.n} conversations (×${b.n / a.n}): ×${(b.t / a.t).toFixed(1)}; per conversation ${(b.t / a.t / (b.n / a.n)).toFixed(2)} (1.00 is linear; above it grows faster); the floor grew ×${(b.f / a.f).toFixed(1)}`);
