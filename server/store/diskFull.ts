// A write the disk refused for lack of space (SQLite's SQLITE_FULL, or an I/O error from
// ENOSPC): the kind of failure that passes once space is freed, so what it would have
// written is kept in memory and written again then, rather than lost or thrown at a caller
// that cannot act on it (an agent's output arriving, a start that failed).
export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || code === 'ENOSPC');
}

/** Calls `fn` every second until it returns true; one timer at a time, never keeping the process alive. */
export class Retrier {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly fn: () => boolean) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.fn()) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    }, 1000);
    this.timer.unref();
  }
}
