// Review settings from config.yaml (`roles.review`): the mode (default quick) and each
// reviewer's harness, model and effort. A lane's model is `roles.review.sub.<lane>.model`,
// falling back to `roles.review.model` (the parent's and the quick agent's); with neither
// set the review is refused, saying which key to set. There is no built-in default model.
import type { ConfigFile } from '../../shared/config';
import { noReviewHarnessError, noReviewModelError } from './reviewRefusals';
import type { ReviewerRole, ReviewModeName } from '../../shared/protocol/review';

export interface ReviewerSettings {
  harness: string;
  model: string;
  effort: string | null;
}

export function reviewMode(config: ConfigFile): ReviewModeName {
  return config.roles?.review?.mode ?? 'quick';
}

/** Default quiet window for head changes: an agent pushing ten times a minute makes one review. */
export const DEFAULT_DEBOUNCE_S = 60;

export function reviewDebounceMs(config: ConfigFile): number {
  return (config.roles?.review?.debounce ?? DEFAULT_DEBOUNCE_S) * 1000;
}

export function reviewerSettings(
  config: ConfigFile,
  role: ReviewerRole,
  o: { fallbackHarness?: string; model?: string; configFile: string },
): ReviewerSettings {
  const review = config.roles?.review;
  const lane = role === 'parent' || role === 'quick' ? undefined : role;
  const sub = lane ? review?.sub?.[lane] : undefined;
  const model = o.model ?? sub?.model ?? review?.model;
  const who = lane ? `the ${lane} reviewer` : role === 'parent' ? 'the review parent' : 'the quick-mode reviewer';
  if (!model) {
    throw noReviewModelError(who, lane, o.configFile);
  }
  const harness = sub?.harness ?? review?.harness ?? o.fallbackHarness;
  if (!harness) throw noReviewHarnessError(who, o.configFile);
  return { harness, model, effort: review?.effort ?? null };
}
