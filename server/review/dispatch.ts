// Starting reviewers (lifecycle step 1): one detached worktree at the PR head commit
// (never the work agent's live workspace), then every reviewer of the run inserted in one
// transaction and started together — the parent and the four lanes in `full` mode, the
// single agent in `quick` mode. Each gets SVC_ISSUE, SVC_REVIEW_RUN, SVC_REVIEW_SHA,
// SVC_REVIEW_LANE and SVC_REVIEW_REPORT (the absolute path of the file it must write).
import * as fs from 'node:fs';
import type { ReviewerRole } from '../../shared/protocol/review';
import type { PreparedStart } from '../conversations/agentGitFacts';
import type { ConversationRow } from '../conversations/conversationService';
import { resolveProfile } from '../harness/profiles';
import type { IssueRow } from '../issues/issueStore';
import { workAgentName } from '../issues/issueIds';
import { fetchBaseCommit } from '../git/fetchBase';
import { createReviewWorktree, diffBase, isEmptyFolder, removeWorktree } from '../issues/workspace';
import { lanesRootOf } from '../lanes/lanesRoot';
import { briefFor } from './briefs';
import { readJournal } from './journal';
import { lastReviewed } from './runFindings';
import type { ReviewCtx } from './context';
import { LANES, reportPath, reviewerName, reviewWorktree, runDir } from './paths';
import { reviewerSettings } from './settings';
import type { ReviewerSettings } from './settings';

export interface RunTarget {
  runId: string;
  mode: 'quick' | 'full';
  sha: string;
  pr: number;
  message?: string;
}

/** Where a run's reviewers work; `prepared`: their git facts, read in the checkout while the worktree was made. */
export interface Where {
  worktree: string;
  base: string;
  baseRef: string;
  prepared?: PreparedStart;
}

export interface Started {
  worktree: string;
  base: string;
  agents: string[];
}

export function rolesOf(mode: 'quick' | 'full'): ReviewerRole[] {
  return mode === 'quick' ? ['quick'] : ['parent', ...LANES];
}

export function configFileShown(ctx: ReviewCtx): string {
  const home = process.env.HOME;
  const file = ctx.app.paths.config;
  return home && file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file;
}

/** Settings of every role, resolved before anything is written so a missing model refuses the whole review. */
export function settingsFor(
  ctx: ReviewCtx,
  issue: IssueRow,
  roles: ReviewerRole[],
  model?: string,
): Map<ReviewerRole, ReviewerSettings> {
  const config = ctx.app.config.config();
  const work = ctx.conv.store.byName(workAgentName(issue.id));
  const out = new Map<ReviewerRole, ReviewerSettings>();
  for (const role of roles)
    out.set(
      role,
      reviewerSettings(config, role, { fallbackHarness: work?.harness, model, configFile: configFileShown(ctx) }),
    );
  for (const s of out.values()) resolveProfile(s.harness, config, ctx.app.distDir, configFileShown(ctx)); // an unknown harness refuses here
  return out;
}

/**
 * A fresh review worktree at the run's commit. `where` settles with what the reviewers'
 * start needs (the merge base, the base ref, their git facts): they may start then, in the
 * folder made here at once, while git still checks it out (`created`; a harness whose agent
 * reads its folder as it starts waits for that). The worktrees of earlier runs of the issue
 * go once `retired` settles (`oldRemoved`; the caller makes that after its reviewers'
 * start). What does not wait on another step runs at once: the base's check (and fetch when
 * origin moved), the new worktree (the head commit fetched only when missing), the diff base.
 */
export function prepareWorktree(
  ctx: ReviewCtx,
  issue: IssueRow,
  t: RunTarget,
  retired: Promise<void> = Promise.resolve(),
): { where: Promise<Where>; created: Promise<void>; oldRemoved: Promise<unknown> } {
  const project = ctx.app.config.project(issue.project);
  const root = lanesRootOf(project);
  const worktree = reviewWorktree(root, issue.id, t.runId);
  // The reviewers' git facts (identity, writable places) are the checkout's, as for a lane:
  // read (or found kept) now, while the worktree is made, instead of in a worktree git has
  // just written, which no answer may be kept for.
  const prepared = ctx.conv.prepareStart(project.path);
  const prefix = reviewWorktree(root, issue.id, '');
  const old = (fs.existsSync(root) ? fs.readdirSync(root) : [])
    .map((name) => `${root}/${name}`)
    .filter((dir) => dir.startsWith(prefix) && /-r\d+$/.test(dir) && dir !== worktree);
  const fetchedBase = fetchBaseCommit(project.path, project.default_branch);
  const fetched = fetchedBase.then((b) => b.ref);
  // The merge base against origin's branch as it is now runs beside the base's check: when
  // that check finds origin's branch unmoved (no fetch, `commit` read), it is the answer;
  // after a fetch (or with no origin) it is asked again of the ref as fetched. Its git runs
  // before the worktree's: the reviewers' start waits for it, not for the checkout.
  const tracking = `origin/${project.default_branch}`;
  const early = diffBase(project, t.sha, tracking);
  const base = fetchedBase.then((b) =>
    b.commit !== undefined && b.ref === tracking ? early : diffBase(project, t.sha, b.ref),
  );
  // The head commit is the PR's, not the base branch's: it does not wait for the base fetch.
  const created = createReviewWorktree(project, issue.branch, worktree, t.sha);
  // The folder is made, empty, in the same tick (unless a leftover is removed first): the
  // reviewers may start in it while git checks it out.
  const folderMade = isEmptyFolder(worktree) ? Promise.resolve() : created;
  const oldRemoved = retired.then(() => Promise.all(old.map((dir) => removeWorktree(project.path, dir))));
  const where = Promise.all([fetched, base, folderMade]).then(([ref, b]) => ({
    worktree,
    base: b,
    baseRef: ref,
    prepared,
  }));
  // Whichever the caller does not reach (it stops at the first failure) must not go unhandled.
  void early.catch(() => undefined);
  void where.catch(() => undefined);
  void created.catch(() => undefined);
  void oldRemoved.catch(() => undefined);
  return { where, created, oldRemoved };
}

/**
 * Inserts the reviewers of `roles` in one transaction, then starts them all; `workspace`
 * settles once their folder is checked out (see prepareWorktree).
 */
export function startReviewers(
  ctx: ReviewCtx,
  issue: IssueRow,
  t: RunTarget,
  where: Where,
  roles: ReviewerRole[],
  settings: Map<ReviewerRole, ReviewerSettings>,
  workspace?: Promise<void>,
): ConversationRow[] {
  fs.mkdirSync(runDir(issue.workspace, t.runId), { recursive: true });
  const work = ctx.conv.store.byName(workAgentName(issue.id));
  const laneReports = Object.fromEntries(LANES.map((l) => [l, reportPath(issue.workspace, t.runId, l)])) as Record<
    (typeof LANES)[number],
    string
  >;
  const existingParent = ctx.conv.store.byName(reviewerName(issue.id, 'parent'));
  const since = lastReviewed(readJournal(issue.workspace), t.runId) ?? undefined;
  const rows = ctx.app.db.transaction(() => {
    const made: ConversationRow[] = [];
    let parentId: number | null = existingParent?.extraEnv?.SVC_REVIEW_RUN === t.runId ? existingParent.id : null;
    for (const role of roles) {
      const s = settings.get(role)!;
      const report = reportPath(issue.workspace, t.runId, role);
      const row = ctx.conv.insert({
        kind: 'agent',
        name: reviewerName(issue.id, role),
        title:
          role === 'parent'
            ? `${issue.id} review ${t.runId} (parent)`
            : role === 'quick'
              ? `${issue.id} review ${t.runId}`
              : `${issue.id} review ${t.runId}: ${role}`,
        project: issue.project,
        cwd: where.worktree,
        harness: s.harness,
        model: s.model,
        effort: s.effort,
        parentId: role === 'parent' || role === 'quick' ? (work?.id ?? null) : parentId,
        issueId: issue.id,
        prompt: briefFor(role, {
          issue: issue.id,
          title: issue.title,
          issueBody: issue.body,
          project: issue.project,
          pr: t.pr,
          branch: issue.branch,
          sha: t.sha,
          base: where.base,
          baseRef: where.baseRef,
          worktree: where.worktree,
          runId: t.runId,
          report,
          laneReports,
          message: t.message,
          ...(since ? { since } : {}),
        }),
        extraEnv: {
          SVC_ISSUE: issue.id,
          SVC_REVIEW_RUN: t.runId,
          SVC_REVIEW_SHA: t.sha,
          SVC_REVIEW_LANE: role,
          SVC_REVIEW_REPORT: report,
          SVC_REVIEW_BASE: where.base,
          SVC_REVIEW_DIR: runDir(issue.workspace, t.runId),
          ...(since ? { SVC_REVIEW_SINCE: since.sha } : {}),
        },
      });
      if (role === 'parent') parentId = row.id;
      made.push(row);
    }
    return made;
  })();
  // The review worktree is a worktree of the checkout (same config, same common git dir): its
  // reviewers take the checkout's facts.
  const prepared = where.prepared ?? ctx.conv.prepareStart(ctx.app.config.project(issue.project).path);
  for (const row of rows) ctx.conv.start(row.id, { prepared, workspace });
  return rows;
}
