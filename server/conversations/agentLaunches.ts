// What a conversation's agent process is started with, and where: its environment, the
// folders it may write, the sandbox around it and the socket of its own a sandboxed agent
// talks to the daemon over; or, for a lane on another host, the run there. The session
// supervisor (conversationService.ts) hands the answer to the harness session it spawns.
import * as os from 'node:os';
import * as path from 'node:path';
import type { App } from '../app';
import type { AgentLauncher } from '../harness/agentTransport';
import type { SessionPlan } from '../harness/harnessSession';
import { localAgent } from '../harness/localAgent';
import type { Profile } from '../harness/profiles';
import { remoteAgent } from '../harness/remoteAgentTransport';
import type { HostLink } from '../hosts/hostLink';
import { agentSocketPath } from '../sandbox/agentSocket';
import { ensurePrivateSocketFolder } from '../daemon/socketFolder';
import { SandboxProbe } from '../sandbox/sandboxProbe';
import { sandboxWrap } from '../sandbox/sandboxWrap';
import { logger } from '../util/log';
import { agentEnv } from './agentEnv';
import { agentGitFacts } from './agentGitFacts';
import type { AgentGitFacts } from './agentGitFacts';
import type { ConversationRow } from './conversationStore';
import { remoteRunOf } from './remoteAgents';
import { writableDirs } from './writableDirs';

const log = logger('conversations');

export interface AgentLaunch {
  /** Read before the process starts: the git probes run as child processes, never blocking the loop. */
  prepared: SessionPlan['prepared'];
  /** Starts the process here, or over SSH on the lane's host. */
  agent: AgentLauncher;
}

export class AgentLaunches {
  /** Whether this machine can start a lane's sandbox (a working answer kept a minute). */
  private readonly sandboxProbe = new SandboxProbe();
  /** The listeners of sandboxed agents' own sockets, by conversation. */
  private readonly agentSockets = new Map<number, { close(): Promise<void> }>();

  constructor(
    private readonly app: App,
    /** Where agents on other hosts are started and stopped (the hosts feature's). */
    private readonly hostLink: HostLink,
  ) {}

  /**
   * How `row`'s agent starts. `gitFacts`: read earlier by prepareStart in a folder of the same
   * repository (a lane's worktree may still be being made); else read now in the row's folder.
   */
  plan(row: ConversationRow, profile: Profile, callerToken: string, gitFacts?: Promise<AgentGitFacts>): AgentLaunch {
    // On a host the agent's environment is built there (remoteAgent.ts); this machine's git
    // facts of the lane's folder would be paths of the host, which svc never looks at itself.
    const remote = row.host ? remoteRunOf(this.app, this.hostLink, row, profile, callerToken) : undefined;
    if (remote)
      return { prepared: Promise.resolve({ env: { ...process.env }, writableDirs: [] }), agent: remoteAgent(remote) };
    // A sandboxed lane's agent talks to the daemon over a socket of its own (the rest of SVC_HOME is hidden from it).
    const sandboxed = row.sandbox === 'workspace';
    const agentSocket =
      sandboxed && !row.bare ? agentSocketPath(this.app.paths.socket, this.app.paths.home, row.id) : undefined;
    // A lane's pushes to a local remote go through svc (bin/git-remote-svc and the lane ref
    // policy), so that remote stays read-only to it; a person's own conversations push as they do.
    const pushesThroughSvc = row.kind === 'lane' && !row.bare;
    const prepared = (gitFacts ?? agentGitFacts(row.cwd, process.env)).then(async (facts) => {
      const places = pushesThroughSvc ? { ...facts.places, localRemotes: [] } : facts.places;
      const env = agentEnv({
        convId: row.id,
        convName: row.name,
        bare: row.bare,
        extraEnv: row.extraEnv,
        profile,
        svcHome: this.app.paths.home,
        shimDir: path.join(this.app.distDir, '..', 'bin'),
        base: process.env,
        gitIdentity: facts.identity,
        callerToken,
        agentSocket,
        pushThroughSvc: pushesThroughSvc ? facts.places.localRemoteUrls : [],
      });
      if (profile.modelEnv) env[profile.modelEnv] = row.model;
      const dirs = row.bare ? [] : writableDirs(row.cwd, agentSocket ?? this.app.paths.socket, places);
      if (!sandboxed) return { env, writableDirs: dirs };
      if (agentSocket) {
        // A long home puts it in <tmp>/svc-<uid>/, which the shared socket may not have made.
        ensurePrivateSocketFolder(agentSocket, this.app.paths.home);
        this.agentSockets.set(row.id, await this.app.rpc.listenForConversation(agentSocket, row.id));
      }
      const sandbox = sandboxWrap(this.sandboxProbe, {
        cwd: row.cwd,
        svcHome: this.app.paths.home,
        env,
        home: env.HOME ?? os.homedir(),
        commonDir: row.bare ? undefined : places.commonDir,
        localRemotes: row.bare ? [] : places.localRemotes,
        hooksPath: places.hooksPath,
        state: profile.state,
        readable: env.SVC_SCRIPT_FILE ? [env.SVC_SCRIPT_FILE] : [],
        socket: agentSocket,
      });
      return { env, writableDirs: dirs, sandbox };
    });
    return { prepared, agent: localAgent };
  }

  /** A sandboxed agent's own socket goes with its agent (it failed to start, or ended). */
  agentGone(id: number): void {
    const socket = this.agentSockets.get(id);
    this.agentSockets.delete(id);
    void socket?.close().catch((e: unknown) => log.warn(`#${id}: closing its socket failed: ${(e as Error).message}`));
  }
}
