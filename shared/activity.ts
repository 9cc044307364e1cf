// The lane activity rule set of the spec (States and transitions), implemented once.
// Every consumer — `svc lane list`, `GET /api/lanes`, the Awareness rail, the Command
// Deck, `svc status` — calls this; nothing stores an activity. First matching row wins.

export const ACTIVITIES = ['failed-to-start', 'needs-you', 'working', 'idle', 'starting', 'stopped'] as const;
export type Activity = (typeof ACTIVITIES)[number];

/** Lanes (and conversations) count as starting for this long after creation. */
export const STARTING_WINDOW_MS = 3 * 60 * 1000;

export interface ActivityFacts {
  /** The conversation recorded a spawn error. */
  spawnError: boolean;
  /** Harness process running and its ACP session open. */
  alive: boolean;
  /** An open permission request or elicitation (question, permission, plan approval). */
  needsYou: boolean;
  /** A prompt turn in flight. */
  working: boolean;
  /** The conversation has ended (exit recorded). */
  ended: boolean;
  archived: boolean;
  createdAt: number;
  now: number;
}

export function activityOf(f: ActivityFacts): Activity {
  if (f.archived) return 'stopped';
  if (f.spawnError) return 'failed-to-start';
  if (f.alive && f.needsYou) return 'needs-you';
  if (f.alive && f.working) return 'working';
  if (f.alive) return 'idle';
  if (!f.ended && f.now - f.createdAt < STARTING_WINDOW_MS) return 'starting';
  return 'stopped';
}

/** A lane is live while starting, idle, working or waiting on the person. */
export function isLive(a: Activity): boolean {
  return a === 'starting' || a === 'idle' || a === 'working' || a === 'needs-you';
}

/** The row facts the rule reads (a conversation or lane row). */
export interface ActivityRow {
  spawnError: string | null;
  endedAt: number | null;
  archivedAt: number | null;
  createdAt: number;
}

/** The rule applied to a stored row and the live harness facts held in memory. */
export function activityOfRow(
  row: ActivityRow,
  live: { alive: boolean; needsYou: boolean; working: boolean },
  now: number,
): Activity {
  return activityOf({
    spawnError: row.spawnError !== null,
    alive: live.alive,
    needsYou: live.needsYou,
    working: live.working,
    ended: row.endedAt !== null,
    archived: row.archivedAt !== null,
    createdAt: row.createdAt,
    now,
  });
}
