// The conversation layer's side of agents on hosts (server/hosts/remoteAgent.ts): what a
// conversation's agent there is given (its environment, the script profile's `scripts:`
// file), and what a restarted daemon does about the agents its predecessor left running.
import * as path from 'node:path';
import type { App } from '../app';
import type { Profile } from '../harness/profiles';
import type { HostLink } from '../hosts/hostLink';
import { remoteRun, stopLeftover } from '../hosts/remoteAgent';
import type { RemoteRun } from '../hosts/remoteAgent';
import { logger } from '../util/log';
import { scriptFor } from './agentEnv';
import { agentGitFacts } from './agentGitFacts';
import type { ConversationRow } from './conversationStore';
import type { TranscriptStore } from './transcriptStore';

const log = logger('conversations');

/** How the agent of a conversation on a host is started and stopped there. */
export function remoteRunOf(
  app: App,
  link: HostLink,
  row: ConversationRow,
  profile: Profile,
  callerToken: string,
): RemoteRun {
  // The user's git identity comes from the project's checkout here: the lane's directory is on the host.
  const project = row.project ? app.config.projects().projects[row.project] : undefined;
  const env = async (): Promise<Record<string, string>> => {
    const identity: Record<string, string> = {};
    for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'])
      if (process.env[k]) identity[k] = process.env[k]!;
    if (project)
      Object.assign(identity, (await agentGitFacts(project.path, process.env).catch(() => undefined))?.identity ?? {});
    const vars: Record<string, string> = { ...identity, ...profile.env, ...(row.extraEnv ?? {}) };
    if (profile.modelEnv) vars[profile.modelEnv] = row.model;
    return vars;
  };
  // `scripts:` name files of this machine, relative to SVC_HOME, as for a local agent (agentEnv.ts).
  const script = scriptFor(profile.scripts, row.name);
  return remoteRun(link, {
    host: row.host!,
    convId: row.id,
    convName: row.name,
    dir: row.cwd,
    bare: row.bare,
    localCwd: app.paths.home,
    env,
    callerToken,
    scriptFile: script ? path.resolve(app.paths.home, script) : undefined,
    // People's conversations and reviewers are never lanes; a lane's mode was fixed at its launch.
    sandbox: row.sandbox === 'workspace' ? { state: profile.state } : undefined,
  });
}

/**
 * A restarted daemon cannot join an ACP session it did not start: the agent a previous
 * daemon left running on `host` under svc's relay is stopped there, and its log says so.
 */
export async function stopAfterRestart(
  link: HostLink,
  transcript: TranscriptStore,
  id: number,
  host: string,
): Promise<void> {
  try {
    const r = await stopLeftover(link, host, id, 'stopped by svc: the daemon restarted');
    if (!r.wasRunning) return;
    transcript.append(id, 'notice', {
      text: r.stopped
        ? `its agent was still running on host ${host}; it was stopped there`
        : `its agent is still running on host ${host} and could not be stopped there; svc lane reap names its processes`,
    });
    transcript.flush();
  } catch (e) {
    log.warn(`#${id}: could not check host ${host} for its agent after the restart: ${(e as Error).message}`);
  }
}
