// The two ways a daemon request fails that the user must hear about, as classes with a
// reason discriminator (STYLE 7). Plain TypeScript (no vscode) so unit tests load it.
import type { ErrorKind } from '../../shared/errors';

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

/** The daemon answered with a typed error; `message` is the daemon's text, shown as is. */
export class DaemonRefusal extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly kind: ErrorKind,
  ) {
    super(message);
    this.name = 'DaemonRefusal';
  }

  static is(e: unknown, reason?: string): e is DaemonRefusal {
    return e instanceof DaemonRefusal && (reason === undefined || e.reason === reason);
  }
}
