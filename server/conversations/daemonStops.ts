// Which conversations the daemon itself ended: those live when it stopped (`svc daemon stop
// --force`, a restart, VS Code's Stop Daemon) and those a crashed daemon left unsettled,
// settled at the next start. `svc conv resume --all-stopped-by-daemon` resumes exactly
// these. A row also keeps a needs-you request that was open at the stop, with the message
// of the turn it interrupted: the stop withdrew the request (the agent's turn ended
// cancelled), so the resume hands the agent that message again and it asks again. A
// resume of any kind, or an archive, ends a row (the person has dealt with it).
import type { Db } from '../store/db';

/** A needs-you request the stop withdrew, and the turn it interrupted. */
export interface InterruptedAsk {
  kind: string;
  title: string;
  /** The interrupted turn's message, as the agent received it. */
  prompt: string;
}

export interface DaemonStop {
  convId: number;
  at: number;
  /** `stopped`: a stop of the daemon ended the agent; `restarted`: the daemon was gone (a crash) and the next one settled it. */
  how: 'stopped' | 'restarted';
  ask: InterruptedAsk | null;
}

export class DaemonStops {
  constructor(private readonly db: Db) {}

  record(s: DaemonStop): void {
    this.db
      .prepare('INSERT OR REPLACE INTO daemon_stopped (conv_id, at, how, ask) VALUES (?, ?, ?, ?)')
      .run(s.convId, s.at, s.how, s.ask ? JSON.stringify(s.ask) : null);
  }

  /** The conversations still stopped by the daemon, oldest first (archived ones left out). */
  list(): DaemonStop[] {
    const rows = this.db
      .prepare(
        `SELECT d.conv_id AS convId, d.at, d.how, d.ask FROM daemon_stopped d
         JOIN conversations c ON c.id = d.conv_id WHERE c.archived_at IS NULL ORDER BY d.conv_id`,
      )
      .all() as { convId: number; at: number; how: DaemonStop['how']; ask: string | null }[];
    return rows.map((r) => ({ ...r, ask: r.ask ? (JSON.parse(r.ask) as InterruptedAsk) : null }));
  }

  /** The row of `convId`, removed: a resume takes it. */
  take(convId: number): DaemonStop | undefined {
    const found = this.list().find((s) => s.convId === convId);
    this.db.prepare('DELETE FROM daemon_stopped WHERE conv_id = ?').run(convId);
    return found;
  }
}

/** What a resumed agent is told when the stop withdrew its request: the interrupted turn, to be done again. */
export function askAgainPrompt(ask: InterruptedAsk): string {
  return [
    `svc stopped while this turn waited for an answer to your ${ask.kind} request "${ask.title}"; the request was withdrawn unanswered.`,
    'Continue the turn: ask again where you need an answer. Its message was:',
    '',
    ask.prompt,
  ].join('\n');
}
