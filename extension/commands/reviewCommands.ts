// Review commands on an issue (the Reviews tree's rows, or a pick of the issues):
// request (the single review entry point, source `extension`), abort (stops every running
// reviewer; the work agent is not messaged) and restart (the parent, and lanes without a
// report; optionally one lane and a model); and Dismiss Finding on a finding row.
import * as vscode from 'vscode';
import { REVIEW_LANES } from '../../shared/config';
import { reviewAbort, reviewDismiss, reviewRequest, reviewRestart } from '../../shared/protocol/review';
import type { FindingTarget } from './commandArgs';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';
import type { CommandDeps } from './commandDeps';
import { ask } from './targets';

/** The issue a command acts on: a Reviews row (or an id), else a pick. */
async function issueTarget(d: CommandDeps, issue: string | undefined, what: string): Promise<string> {
  if (issue) return issue;
  const issues = d.reviews.issues;
  if (!issues.length)
    throw new NothingToDo('there are no issues yet', { button: 'New Issue', command: 'svc.newIssue' });
  const picked = await vscode.window.showQuickPick(
    issues.map((s) => ({
      label: s.issue.id,
      description: s.issue.title,
      detail: s.pr ? `PR #${s.pr.number} · ${s.pr.reviewState.replace(/_/g, ' ')}` : 'no PR yet',
    })),
    { title: `svc: ${what}`, placeHolder: `Which issue to ${what.toLowerCase()}?` },
  );
  if (!picked) throw new UserCancelled();
  return picked.label;
}

export async function requestReview(d: CommandDeps, given: string | undefined): Promise<void> {
  const issue = await issueTarget(d, given, 'Request Review');
  const message = await ask({
    title: `svc: Request Review of ${issue}`,
    prompt: 'A note for the reviewers (optional)',
  });
  const r = await d.connection.request(reviewRequest, {
    issue,
    source: 'extension',
    ...(message.trim() ? { message } : {}),
  });
  void vscode.window.showInformationMessage(
    r.reused
      ? `svc: review ${r.runId} of ${r.issue} is already under way at ${r.sha.slice(0, 7)} (PR #${r.pr}).`
      : `svc: requested review ${r.runId} (${r.mode}) of ${r.issue} at ${r.sha.slice(0, 7)} (PR #${r.pr}).`,
  );
}

export async function abortReview(d: CommandDeps, given: string | undefined): Promise<void> {
  const issue = await issueTarget(d, given, 'Abort Review');
  const r = await d.connection.request(reviewAbort, { issue });
  void vscode.window.showInformationMessage(
    r.stopped.length
      ? `svc: stopped ${r.stopped.length} reviewer(s) of ${r.issue}: ${r.stopped.join(', ')}.`
      : `svc: no reviewer of ${r.issue} was running.`,
  );
}

export async function restartReview(d: CommandDeps, given: string | undefined): Promise<void> {
  const issue = await issueTarget(d, given, 'Restart Review');
  const scope = await vscode.window.showQuickPick(
    [
      { label: 'Parent and every lane without a report', role: undefined as string | undefined },
      ...REVIEW_LANES.map((l) => ({ label: l, description: 'only this lane', role: l })),
    ],
    { title: `svc: Restart Review of ${issue}`, placeHolder: 'What to restart' },
  );
  if (!scope) throw new UserCancelled();
  const model = await ask({
    title: `svc: Restart Review of ${issue}`,
    prompt: 'Model for the restarted reviewers (empty: as configured)',
  });
  const r = await d.connection.request(reviewRestart, {
    issue,
    ...(scope.role ? { role: scope.role as (typeof REVIEW_LANES)[number] } : {}),
    ...(model.trim() ? { model: model.trim() } : {}),
  });
  void vscode.window.showInformationMessage(
    `svc: restarted ${r.restarted.length ? r.restarted.join(', ') : 'nothing'} for review ${r.runId} of ${r.issue}.`,
  );
}

/** A finding row's Dismiss Finding (as `svc review dismiss <issue> <finding>`): not posted again until its code changes. */
export async function dismissFinding(d: CommandDeps, given: FindingTarget | undefined): Promise<void> {
  if (!given) throw new NothingToDo('pick a finding in the Reviews view to dismiss it');
  const r = await d.connection.request(reviewDismiss, given);
  void vscode.window.showInformationMessage(
    `svc: dismissed ${r.finding} of ${r.issue} (${r.location} — ${r.title}); it is not posted again until its code changes.`,
  );
}
