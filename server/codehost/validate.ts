// Input checks both adapters make before anything is posted, with GitHub's limits, so a
// bad review or comment is refused the same way on every host and nothing is written.
import { usageError } from '../../shared/errors';
import type { CreateReview, SetStatus } from './codeHost';

export const MAX_BODY = 65_536;
const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export function checkSha(sha: string, what = 'commit'): void {
  if (!SHA.test(sha)) throw usageError('badSha', `${what} '${sha.slice(0, 80)}' is not a full commit sha`);
}

export function checkBody(body: string, what: string): void {
  if (body.length > MAX_BODY) throw usageError('bodyTooLong', `the ${what} body has ${body.length} characters; the limit is ${MAX_BODY}`);
}

export function checkReview(r: CreateReview): void {
  if (!['APPROVE', 'REQUEST_CHANGES', 'COMMENT'].includes(r.event)) throw usageError('badReviewEvent', `unknown review event '${r.event}'`);
  checkSha(r.commitId, 'review commit');
  checkBody(r.body, 'review');
  if (r.event !== 'APPROVE' && r.body.trim() === '') throw usageError('reviewBodyRequired', `a ${r.event} review needs a body`);
}

export function checkComment(body: string): void {
  if (body.trim() === '') throw usageError('commentBodyRequired', 'a comment needs a body');
  checkBody(body, 'comment');
}

export function checkStatus(sha: string, s: SetStatus): void {
  checkSha(sha);
  if (!['pending', 'success', 'failure', 'error'].includes(s.state)) throw usageError('badStatusState', `unknown status state '${s.state}'`);
  if (s.context.trim() === '' || s.context.length > 255) throw usageError('badStatusContext', 'a status context is 1 to 255 characters');
}
