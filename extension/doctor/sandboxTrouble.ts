// A lane that failed to start because its sandbox cannot start (here or on its host): the
// reason and the fix the sandbox probe gave (server/sandbox/sandboxProbe.ts, the words
// `svc doctor` uses too), read back from the lane's spawn error (server/harness/
// spawnErrors.ts, server/hosts/remoteAgent.ts), and the fix as a page to read. Pure.
import type { DeckRow } from '../commandDeck/deckTypes';

export interface SandboxTrouble {
  convId: number;
  title: string;
  /** `here`, or `on <host>` for a lane on another host. */
  where: string;
  reason: string;
  fix: string;
}

/** The spawn error's shape: "…the lane's sandbox (workspace) cannot start[ there]: <reason>; <fix>". */
const SPAWN_ERROR = /the lane's sandbox \(workspace\) cannot start(?: there)?: ([^;]*); (.*)$/s;

export function sandboxTroubleOf(row: DeckRow): SandboxTrouble | null {
  if (row.archived || row.activity !== 'failed-to-start' || !row.spawnError) return null;
  const m = SPAWN_ERROR.exec(row.spawnError);
  if (!m) return null;
  return {
    convId: row.id,
    title: row.title || row.name,
    where: row.host ? `on ${row.host}` : 'here',
    reason: m[1],
    fix: m[2],
  };
}

/** The notification's words: which lane, and why. */
export const sandboxTroubleMessage = (t: SandboxTrouble): string =>
  `svc: lane #${t.convId} (${t.title}) did not start: its sandbox cannot start ${t.where}: ${t.reason}.`;

/** "Show Fix": the reason, then each way out on its own line, the narrowest first (the probe's order). */
export function sandboxFixPage(t: SandboxTrouble): string {
  const ways = t.fix.split(/; or /).map((w, i) => `${i + 1}. ${i === 0 ? w : `Or ${w}`}`);
  return [
    `# The sandbox cannot start ${t.where}`,
    '',
    `Lane #${t.convId} (${t.title}) did not start: ${t.reason}.`,
    '',
    'Fix it one of these ways, then start the lane again (`svc conv resume` or a new lane):',
    '',
    ...ways,
    '',
    '`svc doctor` checks the sandbox again and says the same.',
    '',
  ].join('\n');
}

/** The first sandbox failure a window sees is told once (a notification with "Show Fix"); the rest are on their rows. */
export class FirstSandboxTrouble {
  private told = false;

  next(rows: readonly DeckRow[] | undefined): SandboxTrouble | null {
    if (this.told || !rows) return null;
    for (const r of rows) {
      const t = sandboxTroubleOf(r);
      if (t) {
        this.told = true;
        return t;
      }
    }
    return null;
  }
}
