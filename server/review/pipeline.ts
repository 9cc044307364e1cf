// The review pipeline: one entry point (`request`) for every trigger — `svc done`,
// `svc review request`, the extension, and head changes (local pushes, GitHub webhooks) —
// plus abort, restart, post and the daemon's own rule-3 synthesis. Every state change of
// an issue's reviews runs through one queue per issue, so a request, a post and a restart
// never interleave. Runs are recorded only in the workspace's journal.
import * as fs from 'node:fs';
import type { ReviewLane } from '../../shared/config';
import type { HeadChange } from '../../shared/protocol/pr';
import type { RequestResult, ReviewerRole } from '../../shared/protocol/review';
import { baseRef, diffBase } from '../issues/workspace';
import type { ConversationRow } from '../conversations/conversationStore';
import type { IssueRow } from '../issues/issueStore';
import type { ReviewPort } from '../issues/reviewPort';
import { deferred } from '../util/deferred';
import type { Deferred } from '../util/deferred';
import { logger } from '../util/log';
import { runChecks } from './checks';
import type { ReviewCtx } from './context';
import { iso } from './context';
import { prepareWorktree, rolesOf, settingsFor, startReviewers } from './dispatch';
import type { RunTarget, Where } from './dispatch';
import { appendJournal, readJournal } from './journal';
import { LANES, reportPath, runDir } from './paths';
import { postIfOrphaned } from './orphan';
import { postVerdict } from './post';
import type { Posted } from './post';
import { parseVerdict } from './reportShape';
import { giveUpName, retire, retiredName, reviewerOf, reviewersOf, running, stopReviewer } from './reviewers';
import {
  alreadyPostedError,
  dispatchFailedError,
  headMissingError,
  noAiReviewError,
  noPrError,
  noReviewError,
  notFullError,
} from './reviewRefusals';
import { ACTIVE_KINDS, latestRun, nextRunId } from './runs';
import type { Run } from './runs';
import { reviewDebounceMs, reviewMode } from './settings';
import type { ReviewerSettings } from './settings';
import { readReviewFile } from './reviewFiles';

const log = logger('review');
/**
 * How long a review request waits for its reviewers to be alive before it answers anyway
 * (a reviewer still starting then shows as starting; the stall rule watches it from there).
 */
const REVIEWER_ALIVE_WAIT_MS = 30_000;

export type RequestSource = 'done' | 'command' | 'extension' | 'head-change';

export class ReviewPipeline implements ReviewPort {
  private queues = new Map<string, Promise<unknown>>();
  /** Head changes waiting out the quiet window (`roles.review.debounce`), per issue: the heads seen. */
  private quiet = new Map<string, { timer: NodeJS.Timeout; heads: string[] }>();
  /** Called after every journal change (the stall watch re-plans). */
  onJournal: (issue: string) => void = () => undefined;

  constructor(readonly ctx: ReviewCtx) {}

  issue(ref: string): IssueRow {
    return this.ctx.issues.resolve(ref);
  }

  isReviewer(row: ConversationRow): boolean {
    return reviewerOf(row) !== undefined;
  }

  /** Refuses early (before `svc done` pushes anything) when the review could not start: a missing model or harness. */
  preflight(issue: IssueRow): void {
    const mode = reviewMode(this.ctx.app.config.config());
    if (mode !== 'none') settingsFor(this.ctx, issue, rolesOf(mode));
  }

  /** Runs `fn` after every earlier operation on the same issue. */
  serial<T>(issue: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(issue) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.queues.set(
      issue,
      next.catch(() => undefined),
    );
    return next;
  }

  /** The issue's next operation also waits for `work`, which its caller does not wait for. */
  private holdQueue(issue: string, work: Promise<unknown>): void {
    const queued = this.queues.get(issue) ?? Promise.resolve();
    this.queues.set(
      issue,
      Promise.all([queued, work]).then(
        () => undefined,
        () => undefined,
      ),
    );
  }

  /**
   * The single entry point. `dedupe` (svc done, head changes) keeps a run already under way
   * at the same head instead of starting another; a head change is also dropped when the
   * newest run already reviewed that head.
   */
  request(
    ref: string,
    o: {
      source: RequestSource;
      message?: string;
      by?: string;
      trigger?: string;
      dedupe?: boolean;
      /** Heads of pushes this request stands for (a burst within the quiet window), oldest first. */
      coalesced?: string[];
    },
  ): Promise<RequestResult> {
    const issue = this.issue(ref);
    return this.serial(issue.id, async () => {
      const host = this.ctx.hosts.forProject(issue.project);
      const pr = await host.getPullRequest({ branch: issue.branch });
      if (!pr || pr.state !== 'open') throw noPrError(issue);
      if (!pr.head) throw headMissingError(issue);
      const sha = pr.head;
      const mode = reviewMode(this.ctx.app.config.config());
      const entries = readJournal(issue.workspace);
      const latest = latestRun(entries);
      if (
        o.dedupe &&
        latest &&
        latest.sha === sha &&
        (o.source === 'head-change' || latest.phase === 'requested' || latest.phase === 'dispatched')
      ) {
        return { issue: issue.id, runId: latest.runId, mode: latest.mode, sha, pr: pr.number, reused: true };
      }
      const settings =
        mode === 'none' ? new Map<ReviewerRole, ReviewerSettings>() : settingsFor(this.ctx, issue, rolesOf(mode));
      const runId = nextRunId(entries);
      // The run still under way (only the newest can be: each request retires the ones
      // before it) is superseded now: its reviewers stop below and its post is refused.
      const supersedes =
        latest && (latest.phase === 'requested' || latest.phase === 'dispatched') ? latest.runId : null;
      this.journal(issue, {
        kind: 'review.requested',
        runId,
        sha,
        source: o.source,
        ...(o.trigger ? { trigger: o.trigger } : {}),
        ...(o.coalesced && o.coalesced.length > 1 ? { coalesced: o.coalesced } : {}),
        ...(supersedes ? { supersedes } : {}),
        ...(o.by ? { by: o.by } : {}),
        mode,
        pr: pr.number,
        ...(o.message ? { message: o.message } : {}),
      });
      // Earlier runs' reviewers give up their names at once and stop once the new run's
      // reviewers are alive (or could not start): five agents ending compete with five
      // starting for this machine's cores. The request answers then, and the earlier runs'
      // worktrees are removed after that too (the issue's next operation still waits for
      // both). A reviewer on a host keeps its name until it has stopped (its stop may fail),
      // so it stops at once and the new reviewers wait for that.
      const newRunStarted = deferred();
      const { namesFree, retired: retiring } = this.retireOthers(issue, runId, newRunStarted.promise);
      void retiring.catch(() => undefined); // awaited below, in order
      void namesFree.catch(() => undefined);
      if (mode === 'none') {
        newRunStarted.resolve();
        await retiring;
      } else {
        try {
          const { cleanedUp } = await this.dispatch(
            issue,
            { runId, mode, sha, pr: pr.number, message: o.message },
            settings,
            'review.dispatched',
            {},
            { retired: retiring, namesFree, started: newRunStarted },
          );
          this.holdQueue(issue.id, Promise.all([retiring, cleanedUp]));
        } catch (e) {
          await retiring; // a reviewer that would not retire is the first failure, as before
          log.error(`${issue.id} ${runId}: reviewers could not start`, e);
          throw dispatchFailedError(issue, runId, (e as Error).message);
        }
      }
      void runChecks(this.ctx, issue, runId, sha).catch((e) => log.error(`${issue.id} ${runId}: checks failed`, e));
      return { issue: issue.id, runId, mode, sha, pr: pr.number, reused: false };
    });
  }

  /** The stall rule's re-dispatch: a new run at the current head, journaled as `review.redispatched`. */
  redispatch(issueId: string, replaces: string): Promise<string | undefined> {
    const issue = this.issue(issueId);
    return this.serial(issue.id, async () => {
      const pr = await this.ctx.hosts.forProject(issue.project).getPullRequest({ branch: issue.branch });
      if (!pr || pr.state !== 'open' || !pr.head) return undefined;
      const mode = reviewMode(this.ctx.app.config.config());
      if (mode === 'none') return undefined;
      const entries = readJournal(issue.workspace);
      // Something may have happened while this waited in the queue (a verdict, a new request).
      const last = entries[entries.length - 1];
      if (!last || last.runId !== replaces || !ACTIVE_KINDS.has(last.kind)) return undefined;
      const settings = settingsFor(this.ctx, issue, rolesOf(mode));
      const runId = nextRunId(entries);
      await this.retireOthers(issue, runId).retired;
      const { cleanedUp } = await this.dispatch(
        issue,
        { runId, mode, sha: pr.head, pr: pr.number },
        settings,
        'review.redispatched',
        { replaces },
      );
      await cleanedUp;
      return runId;
    });
  }

  abort(ref: string): Promise<{ issue: string; runId: string | null; stopped: string[] }> {
    const issue = this.issue(ref);
    return this.serial(issue.id, async () => {
      const run = latestRun(readJournal(issue.workspace));
      const live = reviewersOf(this.ctx, issue.id).filter(
        (r) => running(this.ctx.conv.get(r.row.id)!) || this.ctx.conv.facts(r.row.id).alive,
      );
      const names = live.map((r) => r.row.name);
      // Journaled first, so a parent that dies from the stop is not "orphaned" (rule 3) and the stall rule leaves it be.
      if (run && (run.phase === 'requested' || run.phase === 'dispatched'))
        this.journal(issue, { kind: 'review.aborted', runId: run.runId, sha: run.sha, stopped: names });
      await Promise.all(live.map((r) => stopReviewer(this.ctx, r)));
      log.info(`${issue.id}: review aborted; stopped ${names.join(', ') || 'nothing'}`);
      return { issue: issue.id, runId: run?.runId ?? null, stopped: names };
    });
  }

  restart(
    ref: string,
    o: { role?: ReviewLane; model?: string },
  ): Promise<{ issue: string; runId: string; restarted: string[] }> {
    const issue = this.issue(ref);
    return this.serial(issue.id, async () => {
      const run = latestRun(readJournal(issue.workspace));
      if (!run) throw noReviewError(issue, true);
      if (run.mode === 'none') throw noAiReviewError(issue, run.runId, 'restart');
      if (run.phase === 'verdict') throw alreadyPostedError(issue, run.runId, run.verdict, 'restart');
      if (o.role && run.mode !== 'full') throw notFullError(issue, run.runId, run.mode, 'role');
      const lanes =
        run.mode === 'quick' ? [] : o.role ? [o.role] : LANES.filter((l) => !hasValidReport(issue, run.runId, l));
      const roles: ReviewerRole[] = run.mode === 'quick' ? ['quick'] : ['parent', ...lanes];
      const settings = settingsFor(this.ctx, issue, roles, o.model);
      const current = reviewersOf(this.ctx, issue.id, run.runId).filter(
        (r) => roles.includes(r.role) && r.row.archivedAt === null,
      );
      await Promise.all(current.map((r) => retire(this.ctx, r)));
      for (const role of roles) fs.rmSync(reportPath(issue.workspace, run.runId, role), { force: true });
      const { cleanedUp } = await this.dispatch(
        issue,
        { runId: run.runId, mode: run.mode, sha: run.sha, pr: run.pr! },
        settings,
        'review.dispatched',
        { restart: true, roles },
        { restartOf: run },
      );
      await cleanedUp;
      return { issue: issue.id, runId: run.runId, restarted: roles };
    });
  }

  post(ref: string, runId: string): Promise<Posted> {
    const issue = this.issue(ref);
    return this.serial(issue.id, async () => {
      const out = await postVerdict(this.ctx, issue, runId, 'agent');
      this.onJournal(issue.id);
      return out;
    });
  }

  /** Rule 3: the parent died after all four lanes finished → post from what they wrote. */
  synthesizeIfOrphaned(issueId: string, runId: string): Promise<void> {
    const issue = this.ctx.issues.get(issueId);
    if (!issue) return Promise.resolve();
    return this.serial(issue.id, async () => {
      if (await postIfOrphaned(this.ctx, issue, runId)) this.onJournal(issue.id);
    });
  }

  /** Head changes of every project: a PR of an issue moved (push, webhook) → a review of the new head. */
  onHeadChange(change: HeadChange): void {
    if (change.source === 'opened') return; // svc done opened it and requests the review itself
    const issue = this.ctx.issues.byBranch(change.project, change.branch);
    if (!issue) return;
    // A base change keeps the head but changes the diff: a new review even at the same head.
    const dedupe = change.action !== 'base_changed';
    const wait = reviewDebounceMs(this.ctx.app.config.config());
    const trigger = change.action ? `${change.source} ${change.action}` : change.source;
    if (wait === 0) return this.requestOnHead(issue.id, change, trigger, dedupe, [change.after]);
    // Pushes in a burst make one review of the newest head, once nothing was pushed for `wait`;
    // a review already running goes on until then, and the new request supersedes it.
    const held = this.quiet.get(issue.id);
    if (held) clearTimeout(held.timer);
    const heads = [...(held?.heads ?? []), change.after];
    const timer = setTimeout(() => {
      this.quiet.delete(issue.id);
      this.requestOnHead(issue.id, change, trigger, dedupe, heads);
    }, wait);
    timer.unref();
    this.quiet.set(issue.id, { timer, heads });
  }

  /** Stops the quiet windows' timers (the daemon is stopping). */
  closeQuietWindows(): void {
    for (const q of this.quiet.values()) clearTimeout(q.timer);
    this.quiet.clear();
  }

  private requestOnHead(issueId: string, change: HeadChange, trigger: string, dedupe: boolean, heads: string[]): void {
    const issue = { id: issueId };
    this.request(issue.id, { source: 'head-change', trigger, dedupe, coalesced: heads }).then(
      (r) => {
        if (!r.reused) log.info(`${issue.id}: head ${change.after.slice(0, 7)} (${change.source}) → review ${r.runId}`);
      },
      (e) =>
        log.warn(
          `${issue.id}: head change to ${change.after.slice(0, 7)} did not start a review: ${(e as Error).message}`,
        ),
    );
  }

  journal(issue: IssueRow, e: { kind: string; runId: string | null; sha: string | null; [k: string]: unknown }): void {
    appendJournal(issue.workspace, { at: iso(this.ctx.app.now()), issue: issue.id, ...e });
    this.ctx.app.notify({ topic: 'reviews', id: issue.id });
    this.onJournal(issue.id);
  }

  /**
   * Reviewers of earlier runs stop and give up their names; each gives it up once stopped.
   * With `stopAfter`, those on this machine give up their names at once and stop once
   * `stopAfter` settles; `namesFree` settles when every name is free.
   */
  private retireOthers(
    issue: IssueRow,
    runId: string,
    stopAfter?: Promise<void>,
  ): { namesFree: Promise<void>; retired: Promise<void> } {
    const old = reviewersOf(this.ctx, issue.id).filter((r) => r.runId !== runId && !retiredName(r.row.name));
    const giveUpNames = () => old.filter((r) => !r.row.host && giveUpName(this.ctx, r));
    const named = new Set(stopAfter ? this.ctx.app.db.transaction(giveUpNames)() : []); // one commit for all
    const later = old.filter((r) => named.has(r)).map((r) => stopAfter!.then(() => retire(this.ctx, r, true)));
    const now = old.filter((r) => !named.has(r)).map((r) => retire(this.ctx, r));
    const namesFree = Promise.all(now).then(() => undefined);
    return { namesFree, retired: Promise.all([namesFree, ...later]).then(() => undefined) };
  }

  /**
   * Starts the run's reviewers and answers once they are alive (or failed or ended).
   * `restartOf`: reviewers of that run start again in its worktree. `retired`: the earlier
   * runs' reviewers have stopped (their worktrees go after that); `namesFree`: the new
   * reviewers' names are free. `started` settles once the start is over, whatever came of it.
   */
  private async dispatch(
    issue: IssueRow,
    t: RunTarget,
    settings: Map<ReviewerRole, ReviewerSettings>,
    kind: 'review.dispatched' | 'review.redispatched',
    extra: Record<string, unknown> = {},
    o: { restartOf?: Run; retired?: Promise<void>; namesFree?: Promise<void>; started?: Deferred } = {},
  ): Promise<{ cleanedUp: Promise<unknown> }> {
    const roles = [...settings.keys()];
    const retired = o.retired ?? Promise.resolve();
    const started = o.started ?? deferred();
    let oldWorktreesGone: Promise<unknown> = retired;
    try {
      let where: Where;
      let workspace: Promise<void> | undefined;
      if (o.restartOf?.worktree && fs.existsSync(o.restartOf.worktree)) {
        const project = this.ctx.app.config.project(issue.project);
        where = {
          worktree: o.restartOf.worktree,
          base: await diffBase(project, t.sha),
          baseRef: await baseRef(project),
        };
        await retired;
      } else {
        // The earlier runs' worktrees are removed once the new reviewers are alive (or could
        // not start): a `git worktree remove` of a checkout is as much work as making one,
        // and it would compete with the start for this machine's cores.
        const prepared = prepareWorktree(
          this.ctx,
          issue,
          t,
          Promise.all([retired, started.promise]).then(() => undefined),
        );
        oldWorktreesGone = prepared.oldRemoved;
        where = await Promise.all([prepared.where, o.namesFree ?? retired]).then(([w]) => w);
        workspace = prepared.created;
      }
      if (!o.restartOf) {
        fs.rmSync(runDir(issue.workspace, t.runId), { recursive: true, force: true });
        if (t.mode === 'quick') fs.rmSync(reportPath(issue.workspace, t.runId, 'quick'), { force: true });
      }
      // The reviewers start while git checks their worktree out; the run is dispatched once
      // it is there. When it cannot be made, the reviewers (ended by their harness, which
      // waits for it) give their names back and the request fails with git's reason.
      const rows = startReviewers(this.ctx, issue, t, where, roles, settings, workspace);
      await workspace?.catch(async (e: unknown) => {
        await Promise.all(rows.map((r) => retire(this.ctx, reviewerOf(r)!)));
        throw e;
      });
      this.journal(issue, {
        kind,
        runId: t.runId,
        sha: t.sha,
        mode: t.mode,
        pr: t.pr,
        worktree: where.worktree,
        base: where.base,
        agents: rows.map((r) => r.name),
        ...extra,
      });
      // Answered once every reviewer is alive (its session open, its first prompt sent), or
      // failed or ended: the caller then sees them working, not starting.
      await Promise.all(rows.map((r) => this.ctx.conv.waitAlive(r.id, REVIEWER_ALIVE_WAIT_MS)));
    } finally {
      // What waits for the start (earlier reviewers' stops, worktree removals) begins after
      // the answer is on its way: a timer runs after the reply this turn of the loop writes.
      setTimeout(() => started.resolve(), 0);
    }
    return { cleanedUp: oldWorktreesGone };
  }
}

function hasValidReport(issue: IssueRow, runId: string, lane: ReviewLane): boolean {
  const file = reportPath(issue.workspace, runId, lane);
  const text = readReviewFile(issue.workspace, file);
  return text !== null && parseVerdict(text, lane).ok;
}
