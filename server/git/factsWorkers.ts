// Worker threads for the facts' file-system work (factsTasks.ts), so the daemon's own thread
// never blocks on work that grows with a repository's size. A first list after a restart
// re-checks every lane by its files' stat data: on one 38,000-file lane that is ~0.4 s of
// lstat calls, and 35 such lanes on the daemon's thread held every other request (and the
// timers bounding git, which then fired late and gave up on git commands that had answered
// in 9 ms). Here each task runs on one of `size` threads (2 × cores, like the git runs), one
// task per thread at a time, the rest in order of arrival.
//
// Threads start when first needed and stay for the next read; they do not keep the process
// alive. A thread that cannot start, or dies, fails only its own task: the caller treats that
// as "not known" and recounts with git, as for any file it could not read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { logger } from '../util/log';
import type { FactsTask, FactsTaskMessage, FactsTaskResult } from './factsTasks';

const log = logger('git-facts');

interface Queued {
  task: FactsTask;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface Thread {
  worker: Worker;
  busy: Queued | undefined;
}

export class FactsWorkers {
  private readonly threads: Thread[] = [];
  private readonly waiting: Queued[] = [];
  private nextId = 0;
  private closed = false;

  constructor(readonly size: number) {}

  run<T extends FactsTask>(task: T): Promise<FactsTaskResult<T>> {
    if (this.closed) return Promise.reject(new Error('the facts workers are closed'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Ends every thread; tasks still waiting or running are refused. */
  close(): void {
    this.closed = true;
    for (const q of this.waiting.splice(0)) q.reject(new Error('the facts workers are closed'));
    for (const t of this.threads.splice(0)) {
      t.busy?.reject(new Error('the facts workers are closed'));
      void t.worker.terminate();
    }
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let t = this.threads.find((x) => !x.busy);
      if (!t && this.threads.length < this.size) t = this.start();
      if (!t) return;
      const q = this.waiting.shift()!;
      t.busy = q;
      t.worker.ref(); // a task in flight keeps its answer coming
      t.worker.postMessage({ id: this.nextId++, task: q.task } satisfies FactsTaskMessage);
    }
  }

  private start(): Thread {
    const worker = newWorker();
    const t: Thread = { worker, busy: undefined };
    worker.unref();
    worker.on('message', (m: { value?: unknown; error?: string }) => {
      const q = t.busy;
      t.busy = undefined;
      worker.unref();
      if (m.error !== undefined) q?.reject(new Error(m.error));
      else q?.resolve(m.value);
      this.pump();
    });
    const gone = (e: unknown) => {
      const i = this.threads.indexOf(t);
      if (i < 0) return;
      this.threads.splice(i, 1);
      if (!this.closed) log.warn('a facts worker ended; its task is recounted with git', e);
      t.busy?.reject(e instanceof Error ? e : new Error(`the facts worker ended (${String(e)})`));
      t.busy = undefined;
      if (!this.closed) this.pump();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the facts worker exited with code ${code}`)));
    this.threads.push(t);
    return t;
  }
}

/**
 * The worker's script: dist/factsWorker.js beside the daemon's bundle, or, when this runs
 * from source (the tests, under tsx), factsWorkerMain.ts through tsx's own loader.
 */
function newWorker(): Worker {
  const bundled = path.join(__dirname, 'factsWorker.js');
  if (fs.existsSync(bundled)) return new Worker(bundled);
  const source = path.join(__dirname, 'factsWorkerMain.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true });
}
