// An agent on a host (server/hosts/remoteAgent.ts): started there under svc's relay over
// SSH, its ends told in the relay's words, its stop door finished there (hosts/remoteStop.ts).
// The directory and the harness are checked there, by the shell and the relay that start it.
import type { RemoteRun } from '../hosts/remoteAgent';
import type { RemoteAgentProcess } from '../hosts/remoteAgentProcess';
import { stopOnHost } from '../hosts/remoteStop';
import { SSH_FAILED } from '../hosts/sshTransport';
import { describeExit } from '../util/processExit';
import type { ExitInfo } from '../util/processExit';
import type { AgentLauncher, AgentTransport, StartIo, StopDoor } from './agentTransport';
import { PipedAgent } from './pipedAgent';
import { SpawnError } from './spawnErrors';

/** Exit codes of the shell that starts the relay there: the environment file (98), the lane's directory (97), the relay itself (96). */
const START_FAILED = [96, 97, 98];

export function remoteAgent(remote: RemoteRun): AgentLauncher {
  return {
    check: (io) => Promise.resolve(() => startThere(remote, io)),
  };
}

async function startThere(remote: RemoteRun, io: StartIo): Promise<AgentTransport> {
  let proc: RemoteAgentProcess | undefined;
  try {
    proc = await remote.start(io.profile, {
      logFile: io.logFile,
      now: io.now,
      onLink: (e) => io.onLink(linkNotice(remote.host, proc, e)),
      onLost: (text) => io.onLost(text),
    });
    return new RemoteAgent(remote, proc);
  } catch (e) {
    throw new SpawnError(`host ${remote.host}: ${(e as Error).message}`);
  }
}

class RemoteAgent extends PipedAgent<RemoteAgentProcess> implements AgentTransport {
  constructor(
    private readonly remote: RemoteRun,
    proc: RemoteAgentProcess,
  ) {
    super(proc);
  }

  /** The exit is seen only when the relay reports it (closed): the stop door polls the host meanwhile. */
  onExit(): void {}

  /** What the relay there said of the agent's end, or that the connection was lost before it started. */
  describeEnd(exit: ExitInfo, stopping: boolean): string {
    const proc = this.proc;
    if (!proc.everAttached && exit.code === SSH_FAILED && !stopping) return this.remote.lost(proc.stderr());
    return proc.endText() ?? describeExit(exit);
  }

  earlyExitReason(step: string): string | undefined {
    const proc = this.proc;
    if (!proc.everAttached && proc.exit?.code === SSH_FAILED) return `${step}: ${this.remote.lost(proc.stderr())}`;
    if (proc.vanished) return `${step}: ${proc.endText()}`;
    if (!proc.everAttached && START_FAILED.includes(proc.exit?.code ?? 0)) {
      const said = proc
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('svc:'))
        .join(' ');
      return `host ${this.remote.host}: ${said || `the agent could not start (exit ${proc.exit!.code})`}`;
    }
    return undefined;
  }

  stop(door: StopDoor): Promise<{ stopped: boolean; unreachable?: string }> {
    return stopOnHost(this.proc, this.remote, door.deadline, door.kill);
  }

  /** Its processes are on the host: none here. */
  groupPids(): number[] {
    return [];
  }

  async processes(): Promise<{ pid: number; command: string }[]> {
    return (await this.remote.status()).processes.sort((a, b) => a.pid - b.pid);
  }

  hostLost(): { since: number; text: string } | null {
    return this.proc.hostLost();
  }
}

/** The transcript's words for a change of the connection (none for a failed retry). */
function linkNotice(
  host: string,
  proc: RemoteAgentProcess | undefined,
  e: 'lost' | 'back' | 'retry',
): string | undefined {
  if (e === 'lost') return proc?.hostLost()?.text ?? `connection to host ${host} lost; svc is reconnecting`;
  if (e === 'back') return `reconnected to host ${host}: the agent kept running there and the conversation goes on`;
  return undefined;
}
