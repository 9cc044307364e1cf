// The Command Deck's first level for 2,000 conversations, in the extension's tree model:
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
      lanes.push({ id: b.id, name: b.name, title: b.title, project: 'p', run, key: `k${k}`, role: 'builder', iteration: 1, respawn: 0, parentId: root.id, cwd: '/w', host: null, gitBacked: true, judged: null, activity: 'working', spawnError: null, archived: false, reaped: false, createdAt: 0, endedAt: null, model: 'm', harness: 'script', effort: null, cost: null, report: null, verdict: c ? { verdict: 'NOT_YET', defects: 2, by: c.id, verdictFile: null } : null, git: { branch: `${run}/k${k}`, headSha: 'abc', ahead: 1, dirty: k % 2 === 0 } });
      if (c) lanes.push({ ...lanes[lanes.length - 1], id: c.id, name: c.name, role: 'critic', judged: { key: `k${k}`, iteration: 1 }, activity: 'stopped', verdict: { verdict: 'NOT_YET', defects: 2, by: c.id, verdictFile: null }, git: { branch: null, headSha: 'abc', ahead: null, dirty: false } });
    }
    if (id < n) add({ kind: 'successor', parentId: root.id });
    if (id < n) add({ kind: 'agent', name: `agent-p-${id}-review`, issueId: `P-${id}` });
  }
  return { conversations, lanes };
}

const { conversations, lanes } = world(CONVERSATIONS);
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
const t = median(times);
const f = median(floor);
console.log(`Command Deck first level (${first} top-level rows) of ${conversations.length} conversations and ${lanes.length} lanes: ${t.toFixed(1)} ms median of ${RUNS} (target < ${TARGET_MS} ms); floor JSON.parse of the two answers ${f.toFixed(1)} ms; ratio ${(t / f).toFixed(2)}`);
if (t >= TARGET_MS) {
  console.error(`over target: ${t.toFixed(1)} ms ≥ ${TARGET_MS} ms`);
  process.exitCode = 1;
}
