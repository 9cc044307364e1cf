// What the conversation service knows of a running agent right now (not stored: it
// lives in the harness session). Read by the conversation methods and, through
// lanes/conversationsPort.ts, by lane supervision.

export interface LiveFacts {
  alive: boolean;
  working: boolean;
  needsYou: boolean;
  /** When the agent last became idle (alive, no turn, no ask); undefined unless idle. */
  idleSince?: number;
  lastTurnEndedAt?: number;
  /** When the agent last showed output or tool activity, or began its turn (a stall counts from it). */
  outputAt?: number;
  /** An agent on a host whose connection is down (it keeps running there; svc reconnects). */
  hostLost?: HostLost;
}

export interface HostLost {
  since: number;
  text: string;
}
