// The landing queue as the Awareness cards show it (`svc lane runs`, the rail, the deck):
// each run's queued and running landings, with their place in their base's queue. Read
// from the store on every read, like the rest of a card.
import type { RunCardLanding } from '../../shared/protocol/lanes';
import type { Db } from '../store/db';
import { LandingStore } from './landingStore';

/** `project\0run` → that run's queued and running landings, in queue order. */
export function queuedLandingsByRun(db: Db): Map<string, RunCardLanding[]> {
  const byRun = new Map<string, RunCardLanding[]>();
  for (const l of new LandingStore(db).recent(0)) {
    if (l.state !== 'queued' && l.state !== 'running') continue;
    const key = `${l.project}\0${l.run}`;
    const entry: RunCardLanding = {
      id: l.id,
      lane: l.lane,
      laneId: l.laneId,
      base: l.base,
      state: l.state,
      position: l.position ?? 0,
      pr: l.pr,
    };
    byRun.set(key, [...(byRun.get(key) ?? []), entry]);
  }
  return byRun;
}
