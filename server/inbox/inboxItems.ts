// What waits on the person, computed from what the daemon already knows (pure, so every
// rule is unit-tested): open needs-you requests, blocked reports, spend holds, failed
// starts, stalls and changes-requested reviews nobody is working on. Nothing here is
// stored: each item comes and goes with its cause.
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { InboxItem } from '../../shared/protocol/inbox';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { ageText } from '../../shared/format/duration';
import { shellQuote } from '../../shared/format/shellQuote';
import { isSpendReport } from '../../shared/keys';

/** The most of a report body an item carries: a decision needs its opening, not the whole text. */
export const BODY_LINES = 3;
const LINE_CHARS = 200;

export interface ReviewWaiting {
  issue: string;
  project: string;
  runId: string;
  pr: number | null;
  verdictAt: number;
  /** The issue's work agent, if it exists (alive or not). */
  workAgent: ConversationInfo | undefined;
}

export interface InboxFacts {
  now: number;
  /** Every conversation not archived (lanes included). */
  conversations: ConversationInfo[];
  /** Every lane not archived. */
  lanes: LaneRecord[];
  /** When a live conversation last showed output or tool activity. */
  outputAt: (id: number) => number | undefined;
  /** A lane's stall_after in ms (its role's, else the default). */
  stallAfterMs: (lane: LaneRecord) => number;
  reviews: ReviewWaiting[];
}

const clip = (line: string) => (line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS - 1)}…` : line);
/** A report body's first lines, without blank ones. */
export const firstLines = (body: string): string[] =>
  body
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(0, BODY_LINES)
    .map(clip);

export function inboxItems(f: InboxFacts): InboxItem[] {
  const laneOf = new Map(f.lanes.map((l) => [l.id, l]));
  const items: InboxItem[] = [];
  const where = (c: { id: number; name: string }) => {
    const lane = laneOf.get(c.id);
    return {
      conversation: { id: c.id, name: c.name },
      lane: lane?.name ?? null,
      run: lane?.run ?? null,
      host: lane?.host ?? null,
    };
  };

  for (const c of f.conversations) {
    if (c.ask && c.activity === 'needs-you') {
      const id = `ask-${c.id}`;
      const question = c.ask.kind === 'question';
      items.push({
        id,
        kind: 'needs-you',
        since: c.ask.openedAt,
        ...where(c),
        project: c.project,
        title: `${c.ask.kind}: ${clip(c.ask.title)}`,
        lines: question ? c.ask.fields.map((x) => `field: ${x}`) : [],
        choices: c.ask.options.map((o) => ({ id: o.id, name: o.name })),
        command: question
          ? `svc inbox answer ${id} --text <answer>`
          : `svc inbox answer ${id} --option <${c.ask.options.map((o) => o.id).join('|')}>`,
      });
    }
    if (c.activity === 'failed-to-start') {
      items.push({
        id: `failed-${c.id}`,
        kind: 'failed-start',
        since: c.endedAt ?? c.createdAt,
        ...where(c),
        project: c.project,
        title: `failed to start: ${clip((c.spawnError ?? 'no reason recorded').split('\n')[0])}`,
        lines: laneOf.has(c.id) ? [`or remove it: svc lane reap ${c.name}`] : [],
        choices: [],
        command: `svc conv resume ${c.name}`,
      });
    }
  }

  for (const l of f.lanes) {
    if (l.reaped) continue;
    const report = l.report;
    if (l.budget.state === 'reached') {
      const spend = report && isSpendReport(report) ? report : undefined;
      items.push({
        id: `spend-${l.id}`,
        kind: 'spend',
        since: spend?.at ?? l.createdAt,
        conversation: { id: l.id, name: l.name },
        lane: l.name,
        run: l.run,
        project: l.project,
        host: l.host,
        title: `held at its spend cap: ${l.budget.text}`,
        lines: spend ? firstLines(spend.body) : [],
        choices: [],
        command: `svc inbox answer spend-${l.id} --budget <usd>`,
      });
    }
    // A SPEND report is the spend hold's, above: it waits only while the cap is reached.
    if (report?.status === 'blocked' && !isSpendReport(report)) {
      const lines = firstLines(report.body);
      items.push({
        id: `blocked-${l.id}`,
        kind: 'blocked',
        since: report.at,
        conversation: { id: l.id, name: l.name },
        lane: l.name,
        run: l.run,
        project: l.project,
        host: l.host,
        title: `blocked: ${lines[0] ?? ''}`,
        lines: lines.slice(1),
        choices: [],
        command: `svc tell ${l.name} <your ruling>`,
      });
    }
    const outputAt = f.outputAt(l.id);
    const stallAfter = f.stallAfterMs(l);
    if (l.activity === 'working' && outputAt !== undefined && f.now - outputAt >= stallAfter) {
      items.push({
        id: `stalled-${l.id}`,
        kind: 'stalled',
        since: outputAt + stallAfter,
        conversation: { id: l.id, name: l.name },
        lane: l.name,
        run: l.run,
        project: l.project,
        host: l.host,
        title: `stalled: working, no output or tool activity for ${ageText(f.now - outputAt)}`,
        lines: [`stall_after ${ageText(stallAfter)}; see what it did last: svc conv log ${l.name}`],
        choices: [],
        command: `svc lane stop ${l.name}`,
      });
    }
  }

  for (const r of f.reviews) {
    const agent = r.workAgent;
    if (agent?.alive) continue;
    items.push({
      id: `review-${r.issue.toLowerCase()}`,
      kind: 'changes-requested',
      since: Math.max(r.verdictAt, agent?.endedAt ?? 0),
      conversation: agent ? { id: agent.id, name: agent.name } : null,
      lane: null,
      run: r.runId,
      project: r.project,
      host: null,
      title: `changes requested by review ${r.runId} of ${r.issue}${r.pr !== null ? ` (PR #${r.pr})` : ''}; no work agent is alive`,
      lines: r.pr !== null ? [`the review: svc pr show ${r.pr} --project ${r.project}`] : [],
      choices: [],
      command: agent ? `svc conv resume ${agent.name}` : `svc show ${shellQuote(r.issue)}`,
    });
  }

  return items.sort((a, b) => a.since - b.since || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
