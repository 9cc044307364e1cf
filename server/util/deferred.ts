// A promise with its settlers, for an outcome known later than the code that waits for it.

export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  void promise.catch(() => undefined); // a rejection nobody waits for (no agent started) is no crash
  return { promise, resolve, reject };
}
