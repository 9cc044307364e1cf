// A conversation's agent on a host: the harness runs there under svc's relay
// (helper/relay.ts), which holds its stdio so a lost SSH connection does not end it, and
// the daemon speaks ACP with it over the channel (remoteAgentProcess.ts). Its environment
// (the credential, SVC_CONVERSATION, the forwarded socket) goes to the host in a 0600 file
// read and removed by the shell that starts the relay, never on a command line. Its run
// folder there, ~/.svc-host/agents/<daemon>/<conversation> (0700), holds the relay's
// socket, its state (the agent's process group, which the stop door signals there), the
// exit it leaves behind, and the `scripts:` file of the script profile, copied at each start.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentStatus } from './helper/hostOps';
import type { HostLink, HostReady } from './hostLink';
import { RemoteAgentProcess } from './remoteAgentProcess';
import type { RemoteChannelPlan } from './remoteAgentProcess';
import { HOST_BASE, shq } from './remoteShell';
import type { Wrapped } from '../sandbox/sandboxWrap';

/**
 * What starting a harness on a host needs of its profile (harness/profiles.ts): its name and
 * command line. Said here, not imported, because hosts sits below harness; a Profile is one.
 */
export interface HarnessCommand {
  name: string;
  command: string;
  args: string[];
}

export interface RemoteRun {
  host: string;
  /** Connects, writes the environment on the host, and starts the harness there under svc's relay. */
  start(
    profile: HarnessCommand,
    io: Pick<RemoteChannelPlan, 'logFile' | 'now' | 'onLink' | 'onLost'>,
  ): Promise<RemoteAgentProcess>;
  /** The agent's processes on the host, and its exit once it has one (over a new connection if need be). */
  status(): Promise<AgentStatus>;
  signal(sig: NodeJS.Signals): Promise<boolean>;
  /** Ends whatever still runs in the agent's run folder there (the relay, then the agent). */
  stopLeftover(why: string): Promise<{ wasRunning: boolean; stopped: boolean }>;
  /** What to record when the connection broke before the agent was started (ssh exit 255). */
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
  /** The script profile's `scripts:` file for this conversation (a path on this machine), if one matches. */
  scriptFile?: string;
  /** The agent runs in the workspace sandbox on the host (helper/hostSandbox.ts); `state`: the harness profile's state entries. */
  sandbox?: { state: string[] };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * One line of the agent's environment file. gemini's system defaults from svc are decided
 * on the host, as they are here for a local lane: the host's administrator file
 * (/etc/gemini-cli/system-defaults.json) or a path the host's user set (in ~/.bashrc) wins.
 */
function exportLine(k: string, v: string): string {
  if (k !== 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH') return `export ${k}=${shq(v)}`;
  return `[ -n "\${GEMINI_CLI_SYSTEM_DEFAULTS_PATH:-}\${GEMINI_CLI_SYSTEM_SETTINGS_PATH:-}" ] || [ -e /etc/gemini-cli/system-defaults.json ] || export ${k}=${shq(v)}`;
}

/** The run folder of conversation `convId` on `host` (connecting if need be). */
async function runDirOf(link: HostLink, host: string, convId: number): Promise<string> {
  return `${(await link.prepare(host)).agentsDir}/${convId}`;
}

/** Ends what still runs of conversation `convId` on `host` under svc's relay (a daemon restarted: no one can talk to it any more). */
export async function stopLeftover(
  link: HostLink,
  host: string,
  convId: number,
  why: string,
): Promise<{ wasRunning: boolean; stopped: boolean }> {
  return link.call(host, { op: 'agent', runDir: await runDirOf(link, host, convId), action: 'stop', why });
}

/**
 * The agent's command line inside its sandbox on the host, as svc's helper there works it
 * out from the host's own paths; a host that cannot sandbox it refuses the start with the
 * reason and the fix (a `workspace` lane never runs unconfined).
 */
async function sandboxed(
  link: HostLink,
  s: RemoteAgentSpec,
  ready: HostReady,
  runDir: string,
  hasScript: boolean,
  argv: string[],
): Promise<string[]> {
  const w = await link.call<Wrapped>(s.host, {
    op: 'sandbox',
    dir: s.dir,
    svcBase: `${ready.home}/${HOST_BASE}`,
    readable: [ready.buildDir, ...(hasScript ? [`${runDir}/script`] : [])],
    socketDir: path.posix.dirname(ready.socket),
    state: s.sandbox!.state,
    command: argv[0],
    args: argv.slice(1),
  });
  // The harness session puts `host <name>: ` before it, as for every start that fails there.
  if (!w.ok) throw new Error(`the lane's sandbox (workspace) cannot start there: ${w.reason}; ${w.fix}`);
  return [w.command, ...w.args];
}

export function remoteRun(link: HostLink, s: RemoteAgentSpec): RemoteRun {
  const agentOp = async <T>(req: { action: 'status' } | { action: 'signal'; signal: NodeJS.Signals }): Promise<T> =>
    link.call<T>(s.host, { op: 'agent', runDir: await runDirOf(link, s.host, s.convId), ...req });
  return {
    host: s.host,
    async start(profile, io) {
      const ready = await link.prepare(s.host);
      const host = link.host(s.host);
      const runDir = `${ready.agentsDir}/${s.convId}`;
      const vars: Record<string, string> = { ...(await s.env()) };
      if (!s.bare) {
        Object.assign(vars, {
          SVC_CONVERSATION: String(s.convId),
          SVC_CALLER_TOKEN: s.callerToken,
          SVC_SOCKET: ready.socket,
          // Sandboxed, all of svc's folder on the host is an empty private folder inside: that is its SVC_HOME there.
          SVC_HOME: s.sandbox ? `${ready.home}/${HOST_BASE}` : `${ready.home}/${HOST_BASE}/home`,
          SVC_BIN: `${ready.buildDir}/svc`,
          SVC_REMOTE_HOST: s.host,
        });
      }
      // The script harness reads its `scripts:` file at each prompt: a copy goes to the run
      // folder at each start. One this machine cannot read keeps its name, so the agent says so.
      let script: string | undefined;
      if (s.scriptFile) {
        try {
          script = fs.readFileSync(s.scriptFile, 'utf8');
          vars.SVC_SCRIPT_FILE = `${runDir}/script`;
        } catch {
          vars.SVC_SCRIPT_FILE = s.scriptFile;
        }
      }
      const lines = Object.entries(vars)
        .filter(([k]) => NAME.test(k) && k !== 'PATH')
        .map(([k, v]) => exportLine(k, link.onHost(v, ready)));
      if (!s.bare) lines.push(`export PATH=${shq(ready.buildDir)}:"$PATH"`);
      const envFile = `${ready.home}/${HOST_BASE}/env/${s.convName}-${crypto.randomBytes(6).toString('hex')}.env`;
      const w = await host.run(
        `umask 077 && mkdir -p ${shq(`${ready.home}/${HOST_BASE}/env`)} ${shq(runDir)} && cat > ${shq(envFile)}`,
        { stdin: lines.join('\n') + '\n' },
      );
      if (w.code !== 0)
        throw new Error(`could not write the agent's environment on host ${s.host}: ${w.stderr.trim()}`);
      if (script !== undefined) {
        const c = await host.run(`umask 077 && cat > ${shq(`${runDir}/script`)}`, { stdin: script });
        if (c.code !== 0)
          throw new Error(`could not copy the script file ${s.scriptFile} to host ${s.host}: ${c.stderr.trim()}`);
      }
      // The script harness is svc's own bundle, copied beside the shim; other harnesses are found on the host's PATH.
      let argv =
        profile.name === 'script' && profile.command === process.execPath
          ? ['node', `${ready.buildDir}/scriptAgent.js`]
          : [profile.command, ...profile.args];
      if (s.sandbox) argv = await sandboxed(link, s, ready, runDir, script !== undefined, argv);
      const helper = `${ready.buildDir}/svcHost.js`;
      const launch = [
        `f=${shq(envFile)}; . "$f" || exit 98; rm -f "$f"`,
        `cd ${shq(s.dir)} 2>/dev/null || { echo "svc: lane directory ${s.dir.replace(/["$`\\]/g, '')} does not exist on host ${s.host}" >&2; exit 97; }`,
        `exec node ${shq(helper)} launch ${shq(runDir)} ${shq(s.dir)} -- ${argv.map(shq).join(' ')}`,
      ].join('\n');
      return new RemoteAgentProcess({
        ...io,
        host: s.host,
        localCwd: s.localCwd,
        launch: host.commandOver(launch),
        async attach() {
          const again = await link.prepare(s.host);
          return link
            .host(s.host)
            .commandOver(`exec node ${shq(`${again.buildDir}/svcHost.js`)} attach ${shq(runDir)}`);
        },
      });
    },
    status: () => agentOp<AgentStatus>({ action: 'status' }),
    signal: (sig) => agentOp<boolean>({ action: 'signal', signal: sig }),
    stopLeftover: (why) => stopLeftover(link, s.host, s.convId, why),
    lost(stderr) {
      const said = stderr
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('Warning: Permanently added'))
        .slice(-2)
        .join(' / ');
      return `connection to host ${s.host} lost before the agent started${said ? ` (${said})` : ''}`;
    },
  };
}
