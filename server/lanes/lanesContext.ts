// What every lane operation works with: the app, the lane store, the conversation port,
// and the lane event bus (report filed), created once in laneMethods.ts.
import { EventEmitter } from 'node:events';
import type { App } from '../app';
import type { ConversationsPort } from './conversationsPort';
import type { LaneStore } from './laneStore';
import type { LaneReader } from './records';

export interface LanesContext extends LaneReader {
  app: App;
  /** Emits `report` (convId) when a lane files a report. */
  events: EventEmitter;
}

export function lanesContext(app: App, store: LaneStore, conversations: ConversationsPort, cost: (id: number) => number | null): LanesContext {
  return { app, store, conversations, events: new EventEmitter().setMaxListeners(0), now: () => app.now(), cost };
}
