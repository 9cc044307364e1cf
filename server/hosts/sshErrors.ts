// Refusals of the SSH layer, one place each (STYLE 16): ssh's own stderr is classified into
// what went wrong and what to do about it. svc runs ssh in batch mode, so it never asks for
// a password and never accepts an unknown host key on its own.
import { refused } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';

export type SshFailure = 'hostKeyUnknown' | 'hostKeyChanged' | 'hostUnreachable' | 'loginRefused' | 'sshFailed' | 'sshMissing';

export interface HostRef {
  name: string;
  ssh: string;
}

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
  if (/Host key verification failed|No .* host key is known for|host key is not known/i.test(stderr)) return 'hostKeyUnknown';
  if (/Permission denied \(|Too many authentication failures|no authentication methods/i.test(stderr)) return 'loginRefused';
  if (/Could not resolve hostname|Connection refused|Connection timed out|No route to host|Network is unreachable|Operation timed out|kex_exchange_identification|Connection closed by|Connection reset by|port \d+: /i.test(stderr))
    return 'hostUnreachable';
  return 'sshFailed';
}

export function sshError(host: HostRef, stderr: string): SvcError {
  const kind = classifySsh(stderr);
  const said = tail(stderr) || 'no message';
  const at = `host ${host.name} (${host.ssh})`;
  switch (kind) {
    case 'hostKeyUnknown':
      return refused(kind, `${at}: its host key is not known here (${said}); svc never accepts a host key on its own: connect once with ssh ${host.ssh}, check the fingerprint, and accept it into known_hosts`);
    case 'hostKeyChanged':
      return refused(kind, `${at}: its host key CHANGED since it was accepted (${said}); svc will not connect: find out why, then fix known_hosts (ssh-keygen -R <host>)`);
    case 'loginRefused':
      return refused(kind, `${at}: the login was refused (${said}); svc runs ssh in batch mode (no password prompts): use a key (ssh-agent, or IdentityFile in ~/.ssh/config or hosts.${host.name}.ssh_options)`);
    case 'hostUnreachable':
      return refused(kind, `${at} is unreachable (${said}); check the destination, the network and that sshd runs there (ssh ${host.ssh} true)`);
    default:
      return refused('sshFailed', `${at}: ssh failed (${said})`);
  }
}

export function sshMissingError(): SvcError {
  return refused('sshMissing', 'ssh is not installed on this machine; lanes on other hosts need the OpenSSH client (apt-get install openssh-client)');
}
