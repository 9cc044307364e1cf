// How a process ended (its exit code or signal) and the words for it. In util/ because an
// agent on this machine (harness/agentProcess.ts) and one on a host (hosts/remoteAgentProcess.ts)
// end the same way, and hosts sits below harness.

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export function describeExit(e: ExitInfo): string {
  return e.signal ? `signal ${e.signal}` : `exit ${e.code ?? '?'}`;
}
