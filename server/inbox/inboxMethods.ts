// `inbox/list`: the inbox read from the conversations, lanes and review journals as they
// are now; with a cursor it waits, event-driven (every change views are told of, every
// report, the test clock, and a timer for the next stall), for an item newer than it.
import type { z } from 'zod';
import { inboxList } from '../../shared/protocol/inbox';
import type { InboxItem, InboxListParams, InboxListResult } from '../../shared/protocol/inbox';
import { parseDuration } from '../../shared/format/duration';
import type { LaneRecord } from '../../shared/protocol/lanes';
import type { App } from '../app';
import type { ConversationService } from '../conversations/conversationService';
import { workAgentName } from '../issues/issueIds';
import type { IssueStore } from '../issues/issueStore';
import type { LanesContext } from '../lanes/lanesContext';
import { laneRecords } from '../lanes/records';
import { readJournal } from '../review/journal';
import { latestRun } from '../review/runs';
import { inboxItems } from './inboxItems';
import type { ReviewWaiting } from './inboxItems';

export const DEFAULT_STALL_AFTER_MS = 15 * 60 * 1000;
const DEFAULT_WAIT_S = 300;

export interface InboxDeps {
  conv: ConversationService;
  lanes: LanesContext;
  issues: IssueStore;
}

export interface Inbox {
  /** Every item waiting now, oldest first. */
  read(): Promise<{ items: InboxItem[]; now: number }>;
  /** Calls `fn` whenever the inbox may have changed, and when the next stall falls due; returns an unsubscribe. */
  onMaybeChanged(fn: () => void): () => void;
}

export function stallAfterMs(app: App, lane: Pick<LaneRecord, 'project' | 'role'>): number {
  const text = app.config.projects().projects[lane.project]?.gauntlet?.roles?.[lane.role]?.stall_after;
  return (text !== undefined ? parseDuration(text) : undefined) ?? DEFAULT_STALL_AFTER_MS;
}

function reviewsWaiting(d: InboxDeps): ReviewWaiting[] {
  const out: ReviewWaiting[] = [];
  for (const issue of d.issues.all()) {
    const entries = readJournal(issue.workspace);
    const run = latestRun(entries);
    if (run?.phase !== 'verdict' || run.verdict !== 'CHANGES_REQUESTED') continue;
    const verdict = entries.filter((e) => e.runId === run.runId && e.kind === 'review.verdict').pop();
    const agent = d.conv.store.byName(workAgentName(issue.id));
    out.push({
      issue: issue.id,
      project: issue.project,
      runId: run.runId,
      pr: run.pr,
      verdictAt: verdict ? Date.parse(verdict.at) : run.bornAt,
      workAgent: agent && agent.archivedAt === null ? d.conv.info(agent) : undefined,
    });
  }
  return out;
}

export function makeInbox(app: App, d: InboxDeps): Inbox {
  const read = async () => {
    const now = app.now();
    const conversations = d.conv.list().map((row) => d.conv.info(row, now));
    const rows = d.lanes.store.all().filter((l) => l.archivedAt === null);
    const lanes = await laneRecords(d.lanes, rows, { runLanes: rows });
    const items = inboxItems({
      now,
      conversations,
      lanes,
      outputAt: (id) => d.conv.facts(id).outputAt,
      stallAfterMs: (l) => stallAfterMs(app, l),
      reviews: reviewsWaiting(d),
    });
    return { items, now };
  };
  /** When the next working lane reaches its stall_after, to arm a timer. */
  const nextStall = (): number | undefined => {
    let soonest: number | undefined;
    for (const l of d.lanes.store.all()) {
      if (l.archivedAt !== null) continue;
      const f = d.conv.facts(l.id);
      if (!f.working || f.needsYou || f.outputAt === undefined) continue;
      const due = f.outputAt + stallAfterMs(app, l);
      if (due > app.now() && (soonest === undefined || due < soonest)) soonest = due;
    }
    return soonest;
  };
  const onMaybeChanged = (fn: () => void) => {
    let timer: NodeJS.Timeout | undefined;
    const fire = () => {
      if (timer) clearTimeout(timer);
      const due = nextStall();
      timer = due !== undefined ? setTimeout(fire, due - app.now() + 5) : undefined;
      fn();
    };
    const offs = [
      app.onNotify(fire),
      d.conv.onChanged(fire),
      app.clock.onAdvance(fire),
      () => d.lanes.events.off('report', fire),
    ];
    d.lanes.events.on('report', fire);
    const due = nextStall();
    if (due !== undefined) timer = setTimeout(fire, due - app.now() + 5);
    return () => {
      if (timer) clearTimeout(timer);
      for (const off of offs) off();
    };
  };
  return { read, onMaybeChanged };
}

/** Waits until an item newer than `after` is waiting (or the timeout), re-reading on every change. */
function waitNewer(inbox: Inbox, after: number, timeoutS: number, signal: AbortSignal): Promise<InboxListResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let reading = false;
    let again = false;
    const cleanups: (() => void)[] = [];
    const finish = (r: { items: InboxItem[]; now: number }, outcome: 'new' | 'timeout') => {
      if (settled) return;
      settled = true;
      for (const c of cleanups) c();
      resolve({ ...r, cursor: String(r.now), outcome });
    };
    const check = async (): Promise<void> => {
      if (settled) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        const r = await inbox.read();
        if (r.items.some((i) => i.since > after)) finish(r, 'new');
      } catch (e) {
        settled = true;
        for (const c of cleanups) c();
        reject(e);
      } finally {
        reading = false;
        if (again) {
          again = false;
          void check();
        }
      }
    };
    const timeout = setTimeout(() => void inbox.read().then((r) => finish(r, 'timeout'), reject), timeoutS * 1000);
    const onAbort = () => void inbox.read().then((r) => finish(r, 'timeout'), reject);
    signal.addEventListener('abort', onAbort);
    cleanups.push(
      () => clearTimeout(timeout),
      inbox.onMaybeChanged(() => void check()),
      () => signal.removeEventListener('abort', onAbort),
    );
    void check();
  });
}

export function registerInbox(app: App, d: InboxDeps): Inbox {
  const inbox = makeInbox(app, d);
  app.rpc.handle(inboxList, async (p: z.output<typeof InboxListParams>, rc) => {
    if (p.after === undefined) {
      const r = await inbox.read();
      return { ...r, cursor: String(r.now), outcome: 'read' as const };
    }
    return waitNewer(inbox, Number(p.after), p.timeoutS ?? DEFAULT_WAIT_S, rc.signal);
  });
  return inbox;
}
