// Landing rows in the store. A landing's state only moves forward: queued → running →
// landed | refused | failed. Its lane's name, run and key are joined from the lanes table.
import type { LandMethod } from '../../shared/config';
import type { Landing, LandCheck, LandingState } from '../../shared/protocol/land';
import type { Db } from '../store/db';

type Row = Omit<Landing, 'checks' | 'position'> & { checks: string };

const SELECT = `
  SELECT d.id, d.project, d.base, c.name AS lane, d.lane_id AS laneId, l.run_key AS run, l.lane_key AS key,
         d.head_sha AS headSha, d.method, d.state, d.base_sha AS baseSha, d.landed_sha AS landedSha,
         d.reason, d.message, d.pr, d.checks, d.queued_at AS queuedAt, d.ended_at AS endedAt
  FROM landings d JOIN lanes l ON l.conv_id = d.lane_id JOIN conversations c ON c.id = d.lane_id`;

const ACTIVE = `('queued','running')`;

export class LandingStore {
  constructor(private readonly db: Db) {}

  private read(r: Row | undefined, position: number | null = null): Landing | undefined {
    return r && { ...r, checks: JSON.parse(r.checks) as LandCheck[], position };
  }

  /** Queued and running landings of one base, in queue order (running first). */
  queueOf(project: string, base: string): Landing[] {
    const rows = this.db
      .prepare(`${SELECT} WHERE d.project = ? AND d.base = ? AND d.state IN ${ACTIVE} ORDER BY d.id`)
      .all(project, base) as Row[];
    return rows.map((r, i) => this.read(r, i)!);
  }

  get(id: number): Landing | undefined {
    const r = this.db.prepare(`${SELECT} WHERE d.id = ?`).get(id) as Row | undefined;
    if (!r) return undefined;
    const position = ['queued', 'running'].includes(r.state)
      ? this.queueOf(r.project, r.base).findIndex((q) => q.id === id)
      : null;
    return this.read(r, position);
  }

  /** Every queued and running landing, and the newest `ended` ended ones. */
  recent(ended = 20): Landing[] {
    const active = this.db.prepare(`SELECT DISTINCT project, base FROM landings WHERE state IN ${ACTIVE}`).all() as {
      project: string;
      base: string;
    }[];
    const queued = active.flatMap((b) => this.queueOf(b.project, b.base));
    const done = (
      this.db.prepare(`${SELECT} WHERE d.state NOT IN ${ACTIVE} ORDER BY d.id DESC LIMIT ?`).all(ended) as Row[]
    ).map((r) => this.read(r)!);
    return [...queued, ...done];
  }

  ofLanes(laneIds: readonly number[]): Landing[] {
    if (!laneIds.length) return [];
    const rows = this.db
      .prepare(`${SELECT} WHERE d.lane_id IN (${laneIds.map(() => '?').join(',')}) ORDER BY d.id`)
      .all(...laneIds) as Row[];
    return rows.map((r) => this.read(r)!);
  }

  /** Landings a daemon stop left queued or running, oldest first. */
  unfinished(): Landing[] {
    return (this.db.prepare(`${SELECT} WHERE d.state IN ${ACTIVE} ORDER BY d.id`).all() as Row[]).map((r) =>
      this.read(r)!,
    );
  }

  insert(r: {
    project: string;
    base: string;
    laneId: number;
    headSha: string;
    method: LandMethod;
    at: number;
  }): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO landings (project, base, lane_id, head_sha, method, state, queued_at) VALUES (?, ?, ?, ?, ?, 'queued', ?)`,
        )
        .run(r.project, r.base, r.laneId, r.headSha, r.method, r.at).lastInsertRowid,
    );
  }

  running(id: number, baseSha: string): void {
    this.db.prepare(`UPDATE landings SET state = 'running', base_sha = ? WHERE id = ?`).run(baseSha, id);
  }

  /** The commit the base is about to move to, written before the push (a killed daemon's restart reads it). */
  intend(id: number, sha: string): void {
    this.db.prepare(`UPDATE landings SET landed_sha = ? WHERE id = ?`).run(sha, id);
  }

  /** The GitHub PR the landing goes through, written before anything is merged. */
  setPr(id: number, pr: number): void {
    this.db.prepare(`UPDATE landings SET pr = ? WHERE id = ?`).run(pr, id);
  }

  setChecks(id: number, checks: LandCheck[]): void {
    this.db.prepare(`UPDATE landings SET checks = ? WHERE id = ?`).run(JSON.stringify(checks), id);
  }

  end(
    id: number,
    e: {
      state: Exclude<LandingState, 'queued' | 'running'>;
      at: number;
      landedSha?: string;
      reason?: string;
      message?: string;
    },
  ): void {
    this.db
      .prepare(`UPDATE landings SET state = ?, landed_sha = ?, reason = ?, message = ?, ended_at = ? WHERE id = ?`)
      .run(e.state, e.landedSha ?? null, e.reason ?? null, e.message ?? null, e.at, id);
  }
}
