// ssh's own stderr classified into what went wrong; the refusal that says what to do about
// it is made in hostRefusals.ts.
import type { SvcError } from '../../shared/errors';
import { sshRefusals } from './hostRefusals';
import type { HostRef } from './hostRefusals';

export type SshFailure =
  'hostKeyUnknown' | 'hostKeyChanged' | 'hostUnreachable' | 'loginRefused' | 'sshFailed' | 'sshMissing';

const tail = (stderr: string) =>
  stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('Warning: Permanently added'))
    .slice(-3)
    .join(' / ');

/** What kind of failure ssh's stderr (and exit 255) describes. */
export function classifySsh(stderr: string): SshFailure {
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED|Host key for .* has changed/i.test(stderr)) return 'hostKeyChanged';
  if (/Host key verification failed|No .* host key is known for|host key is not known/i.test(stderr))
    return 'hostKeyUnknown';
  if (/Permission denied \(|Too many authentication failures|no authentication methods/i.test(stderr))
    return 'loginRefused';
  if (
    /Could not resolve hostname|Connection refused|Connection timed out|No route to host|Network is unreachable|Operation timed out|kex_exchange_identification|Connection closed by|Connection reset by|port \d+: /i.test(
      stderr,
    )
  )
    return 'hostUnreachable';
  return 'sshFailed';
}

export function sshError(host: HostRef, stderr: string): SvcError {
  const kind = classifySsh(stderr);
  const said = tail(stderr) || 'no message';
  return kind === 'sshMissing' ? sshRefusals.sshFailed(host, said) : sshRefusals[kind](host, said);
}
