// A conversation's agent on a host: the harness runs there, started by the host's shell
// over the shared SSH connection, and speaks ACP over the SSH channel's stdio. Its
// environment (the credential, SVC_CONVERSATION, the forwarded socket) goes to the host in
// a 0600 file read and removed by the shell that starts the harness, never on a command
// line. The first line the shell prints on stderr is its process group, which the stop
// door signals on the host (cancel, close stdin, SIGTERM the group there).
import * as crypto from 'node:crypto';
import type { Profile } from '../harness/profiles';
import { errorMessage } from '../../shared/errors';
import type { HostLink } from './hostLink';
import { HOST_BASE, shq } from './remoteShell';

export interface RemoteRun {
  host: string;
  /** A folder of this machine to start the local ssh client in. */
  localCwd: string;
  /** Connects, writes the environment on the host, and gives the ssh command that runs the harness there. */
  command(profile: Profile): Promise<{ command: string; args: string[] }>;
  processes(pgid: number): Promise<{ pid: number; command: string }[]>;
  signal(pgid: number, sig: NodeJS.Signals): Promise<boolean>;
  /** What to record when the connection carrying the agent broke (ssh exit 255). */
  lost(stderr: string): string;
}

export interface RemoteAgentSpec {
  host: string;
  convId: number;
  convName: string;
  dir: string;
  bare: boolean;
  localCwd: string;
  /** Environment for the agent beyond svc's own (profile env, extra env, git identity, model variable). */
  env(): Promise<Record<string, string>>;
  callerToken: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function remoteRun(link: HostLink, s: RemoteAgentSpec): RemoteRun {
  return {
    host: s.host,
    localCwd: s.localCwd,
    async command(profile) {
      const ready = await link.prepare(s.host);
      const vars: Record<string, string> = { ...(await s.env()) };
      if (!s.bare) {
        Object.assign(vars, {
          SVC_CONVERSATION: String(s.convId),
          SVC_CALLER_TOKEN: s.callerToken,
          SVC_SOCKET: ready.socket,
          SVC_HOME: `${ready.home}/${HOST_BASE}/home`,
          SVC_BIN: `${ready.buildDir}/svc`,
          SVC_REMOTE_HOST: s.host,
        });
      }
      const lines = Object.entries(vars)
        .filter(([k]) => NAME.test(k) && k !== 'PATH')
        .map(([k, v]) => `export ${k}=${shq(v)}`);
      if (!s.bare) lines.push(`export PATH=${shq(ready.buildDir)}:"$PATH"`);
      const envFile = `${ready.home}/${HOST_BASE}/env/${s.convName}-${crypto.randomBytes(6).toString('hex')}.env`;
      const host = link.host(s.host);
      const w = await host.run(`umask 077 && mkdir -p ${shq(`${ready.home}/${HOST_BASE}/env`)} && cat > ${shq(envFile)}`, { stdin: lines.join('\n') + '\n' });
      if (w.code !== 0) throw new Error(`could not write the agent's environment on host ${s.host}: ${w.stderr.trim()}`);
      // The script harness is svc's own bundle, copied beside the shim; other harnesses are found on the host's PATH.
      const argv = profile.name === 'script' && profile.command === process.execPath ? ['node', `${ready.buildDir}/scriptAgent.js`] : [profile.command, ...profile.args];
      const script = [
        `f=${shq(envFile)}; . "$f" || exit 98; rm -f "$f"`,
        `cd ${shq(s.dir)} 2>/dev/null || { echo "svc: lane directory ${s.dir.replace(/["$`\\]/g, '')} does not exist on host ${s.host}" >&2; exit 97; }`,
        `printf 'svc-remote-pgid %s\\n' "$$" >&2`,
        `exec ${argv.map(shq).join(' ')}`,
      ].join('\n');
      return host.commandOver(script);
    },
    async processes(pgid) {
      return link.call(s.host, { op: 'group', pgid });
    },
    async signal(pgid, sig) {
      return link.call(s.host, { op: 'signal', pgid, signal: sig });
    },
    lost(stderr) {
      const said = stderr
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('svc-remote-pgid'))
        .slice(-2)
        .join(' / ');
      return `connection to host ${s.host} lost${said ? ` (${said})` : ''}; the agent there ended with its channel (ACP runs over it): its worktree and pushed commits are on the host; svc conv resume #${s.convId} continues it`;
    },
  };
}

export function describeHostError(e: unknown): string {
  return errorMessage(e);
}
