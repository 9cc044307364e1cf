// The stop door's waits: each polls its condition, soon at first (a signalled process group
// is usually gone within milliseconds), then every 25 ms (no event tells when a group's
// last process exits), and is checked again at once when the session wakes it (the turn
// ended, the process exited).

/** The stop door's poll intervals: the first checks come soon, then every 25 ms. */
const POLL_MS = [5, 10, 25];

export class StopDoorWaits {
  private readonly wakers = new Set<() => void>();

  /** Checks every pending wait now. */
  wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /** Waits until `cond` holds or `ms` pass; true when it holds. */
  async waitFor(cond: () => boolean, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    for (let n = 0; !cond(); n++) {
      const left = end - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, POLL_MS[Math.min(n, POLL_MS.length - 1)]));
        this.wakers.add(done);
      });
    }
    return true;
  }
}
