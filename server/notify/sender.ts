// Sends what the outbox holds: every pending event whose time has come, one at a time per
// target (so a slow target delays only itself), each acknowledged event marked sent before
// the next, a failed one rescheduled by backoff.ts or given up. Woken when events are
// enqueued, when the test clock moves, and by a timer for the next retry. At the daemon's
// stop the attempts in flight are cut short and stay pending: the next daemon sends them.
import type { NotifyTarget } from '../../shared/config';
import type { Logger } from '../util/log';
import { nextAttemptAt } from './backoff';
import { deliver } from './deliver';
import type { Outbox, OutboxEvent } from './outbox';
import { noticeOf, payloadFor } from './payloads';

export interface SenderDeps {
  outbox: Outbox;
  /** The targets configured now (config.yaml is re-read on change). */
  targets: () => readonly NotifyTarget[];
  now: () => number;
  retryBaseMs: number;
  log: Logger;
}

export class Sender {
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly d: SenderDeps) {}

  /** Sends what is due now; while a round runs, another follows it. */
  kick(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.round()
      .catch((e: unknown) => this.d.log.error('a send round failed', e))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        } else this.arm();
      });
  }

  /** Cuts attempts in flight short (they stay pending) and waits for the round to end. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private async round(): Promise<void> {
    const targets = new Map(this.d.targets().map((t) => [t.name, t]));
    const due = this.d.outbox.due([...targets.keys()], this.d.now(), 200);
    const byTarget = new Map<string, OutboxEvent[]>();
    for (const e of due) byTarget.set(e.target, [...(byTarget.get(e.target) ?? []), e]);
    await Promise.all(
      [...byTarget].map(async ([name, events]) => {
        for (const e of events) {
          if (this.stopping.signal.aborted) return;
          await this.attempt(targets.get(name)!, e);
        }
      }),
    );
    // A full batch: more may be due.
    if (due.length === 200) this.again = true;
  }

  private async attempt(target: NotifyTarget, e: OutboxEvent): Promise<void> {
    const payload = payloadFor(target, noticeOf(e.eventKey, e.item), this.d.now());
    const outcome = await deliver(target, payload, this.stopping.signal);
    if ('aborted' in outcome) return;
    const now = this.d.now();
    if (outcome.ok) {
      this.d.outbox.markSent(e.id, now);
      return;
    }
    const attempts = e.attempts + 1;
    const next = outcome.retry ? nextAttemptAt(attempts, now, this.d.retryBaseMs) : null;
    this.d.outbox.markFailed(e.id, outcome.error, next, now);
    if (next === null)
      this.d.log.warn(`gave up ${e.eventKey} for target ${target.name} after ${attempts} attempt(s): ${outcome.error}`);
  }

  /** A timer for the next pending event's retry time. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopping.signal.aborted) return;
    const at = this.d.outbox.nextDue(this.d.targets().map((t) => t.name));
    if (at === undefined) return;
    // At most a minute: the test clock may jump, and a timer far ahead is re-armed anyway.
    const wait = Math.min(Math.max(0, at - this.d.now()) + 5, 60_000);
    this.timer = setTimeout(() => this.kick(), wait);
    this.timer.unref();
  }
}
