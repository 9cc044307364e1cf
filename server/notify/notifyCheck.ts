// svc doctor's notify checks: one per configured target, with what it was sent, what
// waits, and the events given up (their count and the last error). A target whose latest
// finished event was given up is a problem until one is acknowledged again; the URL and
// the secret are never shown (a Slack webhook's URL is itself a credential).
import type { NotifyTarget } from '../../shared/config';
import type { DoctorCheck } from '../../shared/protocol/doctor';
import { MAX_ATTEMPTS } from './backoff';
import type { TargetTally } from './outbox';

export function notifyChecks(
  targets: readonly NotifyTarget[],
  tallies: readonly TargetTally[],
  configShown: string,
): DoctorCheck[] {
  return targets.map((t) => {
    const n = tallies.find((x) => x.target === t.name) ?? {
      sent: 0,
      pending: 0,
      givenUp: 0,
      lastError: null,
      lastGivenUpAt: null,
      lastSentAt: null,
    };
    const what = `target ${t.name} (${t.kind}, kinds: ${t.kinds ? t.kinds.join(', ') : 'all'})`;
    const counts = `${n.sent} sent, ${n.pending} pending`;
    if (n.givenUp === 0)
      return { area: 'notify', subject: t.name, status: 'ok', text: `${what}: ${counts}`, fix: null };
    const failing = n.lastSentAt === null || (n.lastGivenUpAt ?? 0) >= n.lastSentAt;
    return {
      area: 'notify',
      subject: t.name,
      status: failing ? 'problem' : 'note',
      text: `${what}: ${counts}, ${n.givenUp} given up (retried ${MAX_ATTEMPTS} times, or refused by the target); last error: ${n.lastError ?? 'none recorded'}${failing ? '' : '; sent again since'}`,
      fix: `check notify target ${t.name}'s url and secret in ${configShown}, then svc notify test ${t.name}`,
    };
  });
}
