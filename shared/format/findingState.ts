// A posted review finding's state in words (docs/review-findings.md): against the run
// before, and whether a person dismissed it or it sits on its line. One wording for the
// Reviews tree and the run record.
import type { FindingInfo } from '../protocol/review';

const STATUS: Record<FindingInfo['status'], string> = { new: 'new', open: 'still open', fixed: 'fixed since' };

/** `new`, `still open` or `fixed since`, then `dismissed` or `on its line` when so. */
export function findingState(f: FindingInfo): string[] {
  const state = [STATUS[f.status]];
  if (f.dismissed) state.push('dismissed');
  else if (f.onLine) state.push('on its line');
  return state;
}
