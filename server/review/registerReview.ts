// The review pipeline feature: reviews (review/* methods), head changes of every code host
// as review triggers, the reviewer supervisor and the stall watch. Issues (issues/*
// methods, svc done) are a feature of their own that requests reviews through the
// pipeline (daemon/features.ts wires them).
import type { App } from '../app';
import type { CodeHosts } from '../codehost/codeHosts';
import type { ConversationService } from '../conversations/conversationService';
import type { IssueStore } from '../issues/issueStore';
import { migrateReviewExcludes } from '../issues/reviewExcludes';
import type { ReviewCtx } from './context';
import { stopChecks } from './checks';
import { readJournal } from './journal';
import { ReviewPipeline } from './pipeline';
import { registerReviewMethods } from './reviewMethods';
import { latestRun, serviceVerdicts } from './runs';
import { StallWatch } from './stall';
import { supervise } from './supervise';

export function registerReview(
  app: App,
  deps: { conv: ConversationService; hosts: CodeHosts; issues: IssueStore },
): ReviewPipeline {
  const ctx: ReviewCtx = { app, ...deps };
  const pipeline = new ReviewPipeline(ctx);
  const stall = new StallWatch(ctx, pipeline);
  pipeline.onJournal = () => stall.kick();
  const unsupervise = supervise(ctx, pipeline, stall);
  const offHead = ctx.hosts.onHeadChange((c) => pipeline.onHeadChange(c));
  // Readiness (svc pr show, svc pr merge) trusts the sha each of the service's reviews was for.
  ctx.hosts.trustReviewedShas((pr) => {
    const issue = ctx.issues.byBranch(pr.project, pr.branch);
    return issue ? serviceVerdicts(readJournal(issue.workspace), pr.number) : undefined;
  });
  const offClock = app.clock.onAdvance(() => stall.kick());
  registerReviewMethods(ctx, pipeline);
  // After a restart the previous daemon's reviewers are gone: a parent that died with its
  // four lane reports written is covered by rule 3, any other stalled review by the stall rule.
  setImmediate(() => {
    for (const issue of ctx.issues.all()) {
      const run = latestRun(readJournal(issue.workspace));
      if (run && run.mode === 'full' && run.phase === 'dispatched')
        void pipeline.synthesizeIfOrphaned(issue.id, run.runId);
    }
    stall.kick();
    void migrateReviewExcludes(workspacesOf(app, ctx.issues));
  });
  app.onStop(() => {
    stall.close();
    offClock();
    offHead();
    unsupervise();
    stopChecks();
  });
  return pipeline;
}

/** Each issue workspace with its project's repository (issues of a project no longer configured are left alone). */
function workspacesOf(app: App, issues: IssueStore): { repo: string; workspace: string }[] {
  const out: { repo: string; workspace: string }[] = [];
  for (const issue of issues.all()) {
    try {
      out.push({ repo: app.config.project(issue.project).path, workspace: issue.workspace });
    } catch {
      // an unknown project: nothing of ours to migrate there
    }
  }
  return out;
}
