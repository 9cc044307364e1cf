// What "svc: Stop Daemon" and "svc: Restart Daemon" say, as pure functions (unit-tested;
// no vscode): the modal that asks before live agents stop with the daemon, and the
// message after, which offers to resume the agents it stopped.
import { plural } from '../connection/statusText';

export interface LiveAgent {
  id: number;
  name: string;
  title: string;
}

/** `#3 builder one, #5 review` (at most `max` named, then "and N more"). */
export function agentList(agents: readonly LiveAgent[], max = 5): string {
  const named = agents.slice(0, max).map((a) => `#${a.id} ${a.title || a.name}`);
  const more = agents.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ');
}

const agentsWord = (n: number) => (n === 1 ? '1 Agent' : `${n} Agents`);

/** The modal's message, detail and confirm button; undefined when no agent is live (nothing to ask). */
export function stopModal(
  live: readonly LiveAgent[],
  restart: boolean,
): { message: string; detail: string; confirm: string } | undefined {
  if (!live.length) return undefined;
  const n = live.length;
  const agents = plural(n, 'live agent');
  return {
    message: `${restart ? 'Restart' : 'Stop'} the svc daemon? It stops ${agents}.`,
    detail: `Stopping the daemon stops ${agentList(live)} through the stop door. Their conversations and transcripts are kept; afterwards svc offers to resume ${n === 1 ? 'it' : 'them'}.`,
    confirm: restart ? `Restart Daemon and Stop ${agentsWord(n)}` : `Stop Daemon and ${agentsWord(n)}`,
  };
}

/** The message after the daemon stopped (or restarted), and its Resume button when it stopped agents. */
export function afterStop(
  pid: number,
  stopped: readonly LiveAgent[],
  restartedPid?: number,
): { message: string; resume?: string } {
  const head =
    restartedPid === undefined
      ? `svc: the daemon stopped (pid ${pid})`
      : `svc: the daemon restarted (pid ${pid} → ${restartedPid})`;
  if (!stopped.length) return { message: `${head}.` };
  const n = stopped.length;
  return {
    message: `${head}; it stopped ${plural(n, 'agent')}: ${agentList(stopped)}.`,
    resume:
      restartedPid === undefined
        ? `Start Daemon and Resume ${n === 1 ? 'It' : `All ${n}`}`
        : `Resume ${n === 1 ? 'It' : `All ${n}`}`,
  };
}

/** The message after resuming: who came back, and each refusal in the daemon's words. */
export function afterResume(
  resumed: readonly LiveAgent[],
  failed: readonly { agent: LiveAgent; why: string }[],
): string {
  const parts: string[] = [];
  if (resumed.length) parts.push(`resumed ${agentList(resumed, 10)}`);
  for (const f of failed) parts.push(`#${f.agent.id} not resumed: ${f.why}`);
  return `svc: ${parts.join('; ')}.`;
}
