// A daemon request that cannot be sent: the other way a request fails besides a refusal
// (shared/client/daemonRefusal.ts). Plain TypeScript (no vscode) so unit tests load it.

/** The daemon is not connected; `why` says what the connection knows (shown as is). */
export class DaemonDown extends Error {
  constructor(readonly why: string) {
    super(`the svc daemon is not connected: ${why}`);
    this.name = 'DaemonDown';
  }

  static is(e: unknown): e is DaemonDown {
    return e instanceof DaemonDown;
  }
}
