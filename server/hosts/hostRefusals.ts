// Every refusal of lanes on other hosts (the hosts config, ssh, svc's helper there), each
// message made here and nowhere else (docs/style.md §16). Reasons: shared/refusals/hosts.ts. ssh's
// own stderr is classified in sshErrors.ts; svc runs ssh in batch mode, so it never asks
// for a password and never accepts an unknown host key on its own.
import { refusalsOf } from '../../shared/errors';
import type { ErrorKind, SvcError } from '../../shared/errors';
import { HOST_REFUSALS } from '../../shared/refusals/hosts';
import { isSvcReason } from '../../shared/refusals/reasons';
import { sshCommand } from './remoteShell';

const { notFound, refused, conflict, internal } = refusalsOf(HOST_REFUSALS);

export interface HostRef {
  name: string;
  ssh: string;
  /** The host entry's ssh_options: a printed `ssh …` carries them so it works as printed. */
  options?: readonly string[];
}

/** `ssh` as a person runs it for this host (its options included). */
const sshOf = (host: HostRef) => sshCommand({ ssh: host.ssh, options: host.options ?? [] });

export function unknownHostError(name: string, configured: string[]): SvcError<'unknownHost'> {
  return notFound(
    'unknownHost',
    `no host '${name}' under hosts: in config.yaml (${configured.length ? `configured: ${configured.join(', ')}` : 'none configured: add hosts.<name>.ssh and hosts.<name>.lanes_root'})`,
  );
}

// ---- ssh

export function sshMissingError(): SvcError<'sshMissing'> {
  return refused(
    'sshMissing',
    'ssh is not installed on this machine; lanes on other hosts need the OpenSSH client (apt-get install openssh-client)',
  );
}

/** What ssh said went wrong (`said`: the tail of its stderr), with what to do about it. */
export const sshRefusals = {
  hostKeyUnknown: (host: HostRef, said: string): SvcError<'hostKeyUnknown'> =>
    refused(
      'hostKeyUnknown',
      `${at(host)}: its host key is not known here (${said}); svc never accepts a host key on its own: connect once with ${sshOf(host)} true, check the fingerprint, and accept it into known_hosts`,
    ),
  hostKeyChanged: (host: HostRef, said: string): SvcError<'hostKeyChanged'> =>
    refused(
      'hostKeyChanged',
      `${at(host)}: its host key CHANGED since it was accepted (${said}); svc will not connect: find out why, then fix known_hosts (ssh-keygen -R <host>)`,
    ),
  loginRefused: (host: HostRef, said: string): SvcError<'loginRefused'> =>
    refused(
      'loginRefused',
      `${at(host)}: the login was refused (${said}); svc runs ssh in batch mode (no password prompts): use a key (ssh-agent, or IdentityFile in ~/.ssh/config or hosts.${host.name}.ssh_options)`,
    ),
  hostUnreachable: (host: HostRef, said: string): SvcError<'hostUnreachable'> =>
    refused(
      'hostUnreachable',
      `${at(host)} is unreachable (${said}); check the destination, the network and that sshd runs there (${sshOf(host)} true)`,
    ),
  sshFailed: (host: HostRef, said: string): SvcError<'sshFailed'> =>
    refused('sshFailed', `${at(host)}: ssh failed (${said})`),
};
const at = (host: HostRef) => `host ${host.name} (${host.ssh})`;

export function controlDirUnsafeError(dir: string): SvcError<'controlDirUnsafe'> {
  return conflict(
    'controlDirUnsafe',
    `ssh control folder ${dir} must be a folder only you can use (mode 700, yours); svc refuses to share SSH connections through it: chmod 700 '${dir}' or remove it`,
  );
}

// ---- Checking a host, installing svc there

/** `svc host check`: the probe script itself failed. */
export function probeFailedError(code: number | null, stderr: string): SvcError<'probeFailed'> {
  return refused('probeFailed', `the probe exited ${code}: ${stderr.trim().split('\n').slice(-2).join(' / ')}`);
}

export function hostProbeFailedError(name: string, said: string): SvcError<'hostProbeFailed'> {
  return refused('hostProbeFailed', `host ${name}: the login shell did not say where home is (${said})`);
}

/** `node`: the version the login PATH has, or `none`. */
export function hostNoNodeError(name: string, node: string, needMajor: number): SvcError<'hostNoNode'> {
  return refused(
    'hostNoNode',
    node === 'none'
      ? `host ${name} has no node on its login PATH; svc runs its shim and helper there on Node ${needMajor} or newer: install it (svc host check ${name} says what else is missing)`
      : `host ${name} has Node ${node}; svc's shim and helper there need Node ${needMajor} or newer`,
  );
}

/** `what`: `copying <file> to <host>`, or `installing svc's shim on <host>`. */
export function hostCopyFailedError(what: string, stderr: string): SvcError<'hostCopyFailed'> {
  return refused('hostCopyFailed', `${what} failed: ${stderr.trim()}`);
}

export function hostFetchFailedError(file: string, name: string, stderr: string): SvcError<'hostFetchFailed'> {
  return refused('hostFetchFailed', `could not copy ${file} from host ${name}: ${stderr.trim()}`);
}

/** svc's helper on the host gave no answer it could read (it crashed, or something else printed). */
export function hostOpFailedError(
  name: string,
  op: string,
  code: number | null,
  stderr: string,
): SvcError<'hostOpFailed'> {
  return internal(
    'hostOpFailed',
    `host ${name}: svc's helper failed (${op}, exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
  );
}

/** The helper's own refusal, as it answered: its kind, reason and words pass on unchanged (a reason svc does not know is `hostOpFailed`). */
export function helperRefusal(error: { kind?: string; reason?: string; message?: string } | undefined): SvcError {
  const reason = isSvcReason(error?.reason) ? error.reason : 'hostOpFailed';
  const make = refusalsOf([reason]);
  const kind: ErrorKind = error?.kind !== undefined && error.kind in make ? (error.kind as ErrorKind) : 'internal';
  return make[kind](reason, error?.message ?? 'unknown error');
}

// ---- Said by svc's helper on the host

export const helperRefusals = {
  lanesRootMissing: (root: string): SvcError<'lanesRootMissing'> =>
    refused(
      'lanesRootMissing',
      `the lanes root ${root} does not exist on the host; create it (mkdir -p ${root}) or fix hosts.<name>.lanes_root`,
    ),
  lanesRootOutsideHome: (root: string, home: string): SvcError<'lanesRootOutsideHome'> =>
    refused(
      'lanesRootOutsideHome',
      `the lanes root ${root} is not under the home ${home} of the SSH user; set hosts.<name>.lanes_root to a folder under it`,
    ),
  outsideLanesRoot: (dir: string, root: string): SvcError<'outsideLanesRoot'> =>
    refused('outsideLanesRoot', `lane directory ${dir} is outside the lanes root ${root}`),
  reuseDirGone: (dir: string): SvcError<'reuseDirGone'> =>
    refused(
      'reuseDirGone',
      `--reuse: ${dir} no longer exists on the host (the lane was reaped); launch a new iteration instead`,
    ),
  branchExists: (branch: string): SvcError<'branchExists'> =>
    conflict('branchExists', `branch ${branch} already exists on the host; pass --branch <name> for a new one`),
  startNotOnOrigin: (start: string): SvcError<'startNotOnOrigin'> =>
    refused('startNotOnOrigin', `commit ${start} is not on origin (the host's copy fetched it); push it first`),
};
