// The daemon's own refusals, each message made here and nowhere else (docs/style.md §16). Reasons:
// shared/refusals/daemon.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { DAEMON_REFUSALS } from '../../shared/refusals/daemon';

const { refused } = refusalsOf(DAEMON_REFUSALS);

export function clockFixedError(): SvcError<'clockFixed'> {
  return refused('clockFixed', 'the daemon clock moves only in a test daemon (SVC_TEST_CLOCK=1)');
}
