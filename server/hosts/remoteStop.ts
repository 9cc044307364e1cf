// The rest of the stop door for an agent on a host (the harness session has sent the
// cancel and the EOF): wait for it to end, then SIGTERM its process group THERE, through
// svc's helper over a new connection if the one carrying the agent is down. Stopped means
// the group on the host is empty; a host that cannot be asked is not stopped (`unreachable`
// says why), and the agent runs on under its relay until svc reconnects and the EOF reaches it.
import type { RemoteRun } from './remoteAgent';
import type { RemoteAgentProcess } from './remoteAgentProcess';

export async function stopOnHost(
  proc: RemoteAgentProcess,
  remote: RemoteRun,
  deadline: number,
  kill: boolean,
): Promise<{ stopped: boolean; unreachable?: string }> {
  const left = () => Math.max(0, deadline - Date.now());
  await waitFor(() => proc.exited, Math.min(2000, left()));
  if (!proc.everAttached) {
    // The relay never answered (the launch failed or was cut): end whatever it left there.
    const r = await remote
      .stopLeftover('stopped by svc before the agent started')
      .catch((e: Error) => ({ stopped: false, unreachable: e.message }));
    if (!proc.exited) proc.abandon({ code: null, signal: 'SIGTERM' });
    return r;
  }
  let unreachable: string | undefined;
  const count = async () => {
    try {
      return (await remote.status()).processes.length;
    } catch (e) {
      unreachable = (e as Error).message;
      return -1;
    }
  };
  let n = await count();
  if (n > 0) {
    await remote.signal('SIGTERM').catch(() => false);
    while (n !== 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      n = await count();
    }
  }
  if (n > 0 && kill) {
    await remote.signal('SIGKILL').catch(() => false);
    await new Promise((r) => setTimeout(r, 250));
    n = await count();
  }
  if (n === 0 && !proc.exited) {
    // Gone there; its relay holds the exit for the next attach (the connection may be down).
    proc.reconnectNow();
    await waitFor(() => proc.exited, Math.max(3000, left()));
  }
  if (n === 0) {
    // Its exit arrived (or not): the channel closes after it; stopped means the session has ended too.
    let closed = false;
    void proc.closed.then(() => (closed = true));
    await waitFor(() => closed, Math.max(3000, Math.min(10_000, left())));
    if (!closed) {
      const st = await remote.status().catch(() => null);
      proc.abandon(
        proc.exit ?? { code: st?.exit?.code ?? null, signal: (st?.exit?.signal as NodeJS.Signals | null) ?? 'SIGTERM' },
        proc.relayExit ?? st?.exit ?? undefined,
      );
      await proc.closed;
    }
  }
  return { stopped: n === 0 && proc.exited, ...(n < 0 && unreachable ? { unreachable } : {}) };
}

async function waitFor(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}
