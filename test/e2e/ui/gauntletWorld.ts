// The gauntlet the Command Deck, Conversation, overview, reap and theme suites look at:
// project lp with a root conversation ("gauntlet root") and lanes of run r1 started under
// it with the `script` harness (builder api and its critic, ask, xss). Each step runs once
// per e2e run, for whichever suite needs it first: in the whole run the test about a lane
// starts it (and its suite's assertions watch that happen); a suite run on its own (mocha
// --grep) gets the same lanes, in the same order, from its `before` (which also opens the
// svc container, as the suites before it leave the side bar in the whole run).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../../shared/protocol/lanes';
import { buildAndReport, judgeAndReport } from '../../helpers/lanes';
import { eventually, makeRepo } from '../../helpers/scratch';
import { writeBrief } from '../../helpers/scriptBrief';
import { ok } from './cli';
import { session } from './session';

export interface Gauntlet {
  rootId: number;
  /** Where the lanes' briefs (and the XSS report) are written. */
  briefs: string;
  /** Conversation ids by lane key (api, critic, ask, xss, …), filled as the lanes start. */
  id: Record<string, number>;
  /** The ask lane's question was answered (Allow): by the needs-you test, or by `askAnswered`. */
  askAnswered: boolean;
}

/** Raw HTML, an event handler, a script and a javascript: link, in Markdown an agent wrote. */
export const XSS = [
  "XSS-MARK <img src=x onerror=\"window.__xss='img'\"> and <script>window.__xss='script'</script>",
  '',
  "<svg onload=\"window.__xss='svg'\"></svg> [click me](javascript:window.__xss='link') <iframe src=\"javascript:window.__xss='iframe'\"></iframe>",
].join('\n');

/** `f` once per run: later calls share its promise. */
export function once<T>(f: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
}

/** Project lp, the review role on the script harness, and the root conversation. */
export const gauntlet = once(async (): Promise<Gauntlet> => {
  const { cs } = session();
  const { dir } = makeRepo(cs.scratch, 'lp');
  await ok(['project', 'add', 'lp', dir]);
  await ok(['config', 'set', 'roles.review.harness', 'script']);
  await ok(['config', 'set', 'roles.review.model', 'm']);
  const briefs = path.join(cs.scratch.home, 'briefs');
  const created = JSON.parse(
    await ok([
      'conv',
      'new',
      '--project',
      'lp',
      '--harness',
      'script',
      '--model',
      'm',
      '--title',
      'gauntlet root',
      '--prompt',
      'I orchestrate.',
      '--json',
    ]),
  ) as { conversation: { id: number } };
  return { rootId: created.conversation.id, briefs, id: {}, askAnswered: false };
});

/** Starts a lane under conversation `parent` on the script harness; its conversation id. */
export async function startLaneUnder(parent: number, args: string[]): Promise<number> {
  const out = await ok(['lane', 'start', '--parent', String(parent), '--harness', 'script', '--model', 'm', ...args]);
  return Number(/: conv (\d+) /.exec(out)![1]);
}

/** Starts a lane under the gauntlet root; its conversation id. */
export async function startLane(args: string[]): Promise<number> {
  return startLaneUnder((await gauntlet()).rootId, args);
}

export const lanes = async (): Promise<LaneRecord[]> =>
  JSON.parse(await ok(['lane', 'list', '--json'])) as LaneRecord[];

/**
 * Builder `<run>/api` (writes api.txt, reports done), then its critic (a NOT_YET verdict with
 * `defects` defects), each waited for until it has reported.
 */
export async function startBuilderAndCritic(
  start: (args: string[]) => Promise<number>,
  briefs: string,
  run: string,
  defects: number,
): Promise<{ builder: number; critic: number }> {
  const builder = await start([
    '--run',
    run,
    '--key',
    'api',
    '--role',
    'builder',
    '--brief',
    writeBrief(briefs, 'api.md', [{ run: buildAndReport('api.txt', 'x'), check: true }]),
  ]);
  await ok(['lane', 'wait', `${run}-api-builder-i1`, '--timeout', '60']);
  const critic = await start([
    '--run',
    run,
    '--for',
    'api',
    '--role',
    'critic',
    '--brief',
    writeBrief(briefs, 'critic.md', [{ run: judgeAndReport('NOT_YET', defects) }]),
  ]);
  await ok(['lane', 'wait', `${run}-api-critic-i1`, '--timeout', '60']);
  return { builder, critic };
}

/** r1/api builder and its critic (NOT_YET, 2 defects), both reported. */
export const apiAndCritic = once(async () => {
  const g = await gauntlet();
  const { builder, critic } = await startBuilderAndCritic(startLane, g.briefs, 'r1', 2);
  [g.id.api, g.id.critic] = [builder, critic];
});

/** r1/ask builder: it asks "Proceed with the e2e lane?" and, once answered, says "proceeding". */
export const askLane = once(async () => {
  const g = await gauntlet();
  g.id.ask = await startLane([
    '--run',
    'r1',
    '--key',
    'ask',
    '--role',
    'builder',
    '--brief',
    writeBrief(g.briefs, 'ask.md', [{ ask: 'Proceed with the e2e lane?' }, { say: 'proceeding' }]),
  ]);
  return g.id.ask;
});

/** The ask lane, answered Allow (with `svc conv answer`, unless the needs-you test answered it from its panel) and idle. */
export const askAnswered = once(async () => {
  const g = await gauntlet();
  const ask = await askLane();
  if (g.askAnswered) return;
  const activity = async () => (await lanes()).find((l) => l.id === ask)?.activity;
  await eventually(async () => (await activity()) === 'needs-you', 20_000, `#${ask} needs-you`);
  await ok(['conv', 'answer', String(ask), '--allow']);
  g.askAnswered = true;
  await eventually(async () => (await activity()) === 'idle', 15_000, `#${ask} idle after the answer`);
});

/** r1/xss builder, titled with an XSS payload: says XSS, reports failed with XSS as its report body. */
export const xssLane = once(async () => {
  const g = await gauntlet();
  const report = path.join(g.briefs, 'xss-report.md');
  fs.mkdirSync(g.briefs, { recursive: true });
  fs.writeFileSync(report, XSS + '\n');
  g.id.xss = await startLane([
    '--run',
    'r1',
    '--key',
    'xss',
    '--role',
    'builder',
    '--title',
    'xss <img src=x onerror="window.__xss=\'title\'">',
    '--brief',
    writeBrief(g.briefs, 'xss.md', [{ say: XSS }, { run: `svc lane report --status failed --file '${report}'` }]),
  ]);
  await ok(['lane', 'wait', 'r1-xss-builder-i1', '--timeout', '60'], 4);
  return g.id.xss;
});
