// The two queues of a facts pass (worktreeFacts.ts): the recounts of one read, started
// together so they can be batched, and the slots that bound how many git processes run at once.

/**
 * The recounts of one read, started together once each of its lanes has said whether it
 * needs one (some learn it only after reading their index), so they can be batched.
 */
export class Recounts<R extends { resolve: (dirty: boolean) => void; reject: (e: unknown) => void }> {
  private readonly waiting: R[] = [];

  constructor(
    private undecided: number,
    private readonly start: (all: R[]) => void,
  ) {}

  /** This lane needs no recount (or will not get one: it failed first). */
  decided(): void {
    if (--this.undecided === 0 && this.waiting.length > 0) this.start(this.waiting.splice(0));
  }

  request(r: Omit<R, 'resolve' | 'reject'>): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ ...r, resolve, reject } as R);
      this.decided();
    });
  }
}

/** At most `n` tasks at once, the rest in order of arrival. */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
