// The landing queue: landings of one (project, base) run one at a time in the order they
// were queued, each on the base its predecessors left (a merge queue). The order is the
// store's (landing ids); the chain here only keeps two from running at once.
import { runLanding } from './landing';
import type { LandContext, Outcome } from './landing';

export class LandQueue {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly outcomes = new Map<number, Promise<Outcome>>();

  constructor(private readonly ctx: LandContext) {}

  /** Queues landing `id` behind the others of its base; the promise is its outcome. */
  enqueue(id: number, project: string, base: string): Promise<Outcome> {
    const key = `${project}\0${base}`;
    const outcome = (this.tails.get(key) ?? Promise.resolve()).then(() => runLanding(this.ctx, id));
    const tail = outcome.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
      this.outcomes.delete(id);
    });
    this.outcomes.set(id, outcome);
    return outcome;
  }

  /** The outcome of a landing still queued or running in this daemon; undefined once it ended. */
  outcomeOf(id: number): Promise<Outcome> | undefined {
    return this.outcomes.get(id);
  }
}
