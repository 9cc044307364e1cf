// One asynchronous job (a daemon read for a view) run on request: requests arriving within
// the delay make one run, and runs never overlap: a request made while one runs gives exactly
// one more run after it. The Command Deck's and the other views' reads (liveQuery.ts) and the
// Conversation panel share it, so neither keeps a timer-and-flags machine of its own.
export class CoalescedRun {
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private disposed = false;

  constructor(
    private readonly job: () => Promise<void>,
    private readonly delayMs: number,
  ) {}

  /** Runs after `delay` ms, unless a run is already pending (that one covers this request). */
  request(delay = this.delayMs): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, delay);
  }

  /** Runs now (a pending run is folded in) and resolves when that run is done. */
  now(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.run();
  }

  private async run(): Promise<void> {
    if (this.disposed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      await this.job();
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.request(0);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
