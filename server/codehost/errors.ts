// Typed refusals of the code hosts. The pipeline branches on these (never on text):
// `SelfReviewRefused` sends the verdict down the marker-comment path.
import { SvcError } from '../../shared/errors';

export const SELF_REVIEW_REFUSED = 'selfReviewRefused';

/** The host refused APPROVE or REQUEST_CHANGES because the reviewer is the PR's author (GitHub 422). */
export class SelfReviewRefused extends SvcError {
  constructor(
    readonly pr: number,
    readonly login: string,
    readonly hostMessage: string,
  ) {
    super('refused', SELF_REVIEW_REFUSED, `the code host refused a review of PR #${pr} by its author ${login}: ${hostMessage}`);
    this.name = 'SelfReviewRefused';
  }

  static override is(e: unknown): e is SelfReviewRefused {
    return e instanceof SvcError && e.reason === SELF_REVIEW_REFUSED;
  }
}
