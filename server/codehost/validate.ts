// Input checks both adapters make before anything is posted, with GitHub's limits, so a
// bad review or comment is refused the same way on every host and nothing is written.
import {
  badReviewEventError,
  badShaError,
  badStatusContextError,
  badStatusStateError,
  bodyTooLongError,
  commentBodyRequiredError,
  reviewBodyRequiredError,
} from './codehostRefusals';
import type { CreateReview, SetStatus } from './codeHost';

export const MAX_BODY = 65_536;
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export function checkSha(sha: string, what = 'commit'): void {
  if (!SHA.test(sha)) throw badShaError(what, sha);
}

export function checkBody(body: string, what: string): void {
  if (body.length > MAX_BODY) throw bodyTooLongError(what, body.length, MAX_BODY);
}

export function checkReview(r: CreateReview): void {
  if (!['APPROVE', 'REQUEST_CHANGES', 'COMMENT'].includes(r.event)) throw badReviewEventError(r.event);
  checkSha(r.commitId, 'review commit');
  checkBody(r.body, 'review');
  if (r.event !== 'APPROVE' && r.body.trim() === '') throw reviewBodyRequiredError(r.event);
}

export function checkComment(body: string): void {
  if (body.trim() === '') throw commentBodyRequiredError();
  checkBody(body, 'comment');
}

export function checkStatus(sha: string, s: SetStatus): void {
  checkSha(sha);
  if (!['pending', 'success', 'failure', 'error'].includes(s.state)) throw badStatusStateError(s.state);
  if (s.context.trim() === '' || s.context.length > 255) throw badStatusContextError();
}
