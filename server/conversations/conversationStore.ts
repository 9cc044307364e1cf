// Conversation rows in the store. Plain synchronous SQL so callers can insert inside
// their own db.transaction (lanes check "no other live lane" and insert atomically).
import type { SandboxMode } from '../../shared/config';
import type { ConversationKind } from '../../shared/protocol/conversations';
import type { Db } from '../store/db';
import { isDiskFull, Retrier } from '../store/diskFull';
import { StatementCache } from '../store/statementCache';
import type { UnsyncedWriter } from '../store/unsyncedWriter';
import { logger } from '../util/log';

export interface ConversationRow {
  id: number;
  name: string;
  title: string;
  kind: ConversationKind;
  parentId: number | null;
  project: string | null;
  cwd: string;
  harness: string;
  model: string;
  effort: string | null;
  issueId: string | null;
  /** Launched without service context (play lanes). */
  bare: boolean;
  /** Extra environment for the agent (reviewers' SVC_REVIEW_* and the like). */
  extraEnv: Record<string, string> | null;
  /** How its tool calls are approved, when the role says (else by kind: a person's asks, the rest run unattended). */
  permissions: 'ask' | 'auto' | null;
  /** The host (config.yaml hosts.<name>) the agent runs on over SSH; null: this machine. */
  host: string | null;
  /** A lane's sandbox, fixed at launch (server/sandbox/); null: not a lane, its agent runs as the person. */
  sandbox: SandboxMode | null;
  firstPrompt: string;
  sessionId: string | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  exitStatus: string | null;
  spawnError: string | null;
  archivedAt: number | null;
  costAmount: number | null;
  costCurrency: string | null;
  contextUsed: number | null;
  contextSize: number | null;
}

const SELECT = `SELECT id, name, title, kind, parent_id AS parentId, project, cwd, harness, model, effort,
  issue_id AS issueId, bare, extra_env AS extraEnv, permissions, host, sandbox, first_prompt AS firstPrompt, session_id AS sessionId,
  created_at AS createdAt, started_at AS startedAt, ended_at AS endedAt, exit_status AS exitStatus,
  spawn_error AS spawnError, archived_at AS archivedAt, cost_amount AS costAmount, cost_currency AS costCurrency,
  context_used AS contextUsed, context_size AS contextSize FROM conversations`;

/** A row as lists read it: everything but the first prompt (a whole brief, often KBs), which only a start reads. */
export type ListedRow = Omit<ConversationRow, 'firstPrompt'>;
const SELECT_LISTED = SELECT.replace(' first_prompt AS firstPrompt,', '');

type Raw = Omit<ConversationRow, 'bare' | 'extraEnv'> & { bare: number; extraEnv: string | null };

function fix<R extends Omit<Raw, 'firstPrompt'>>(
  r: R | undefined,
): (Omit<R, 'bare' | 'extraEnv'> & Pick<ConversationRow, 'bare' | 'extraEnv'>) | undefined {
  if (!r) return undefined;
  return { ...r, bare: r.bare === 1, extraEnv: r.extraEnv ? (JSON.parse(r.extraEnv) as Record<string, string>) : null };
}

/** The columns written at insert; the rest are filled in by the lifecycle (RowPatch). */
export type RowInsert = Pick<
  ConversationRow,
  | 'name'
  | 'title'
  | 'kind'
  | 'parentId'
  | 'project'
  | 'cwd'
  | 'harness'
  | 'model'
  | 'effort'
  | 'issueId'
  | 'bare'
  | 'extraEnv'
  | 'permissions'
  | 'host'
  | 'sandbox'
  | 'firstPrompt'
  | 'createdAt'
>;

/** Columns the lifecycle updates; everything else is written once at insert. */
export type RowPatch = Partial<
  Pick<
    ConversationRow,
    | 'sessionId'
    | 'startedAt'
    | 'endedAt'
    | 'exitStatus'
    | 'spawnError'
    | 'archivedAt'
    | 'costAmount'
    | 'costCurrency'
    | 'contextUsed'
    | 'contextSize'
  >
>;

const COLUMN: Record<keyof RowPatch, string> = {
  sessionId: 'session_id',
  startedAt: 'started_at',
  endedAt: 'ended_at',
  exitStatus: 'exit_status',
  spawnError: 'spawn_error',
  archivedAt: 'archived_at',
  costAmount: 'cost_amount',
  costCurrency: 'cost_currency',
  contextUsed: 'context_used',
  contextSize: 'context_size',
};

const log = logger('conversations');

export class ConversationStore {
  private readonly byIdStmt;
  private readonly byNameStmt;
  /** Updates the disk refused (full): shown by every read, written once there is space. */
  private readonly unsaved = new Map<number, RowPatch>();
  private readonly retrier = new Retrier(() => this.writeUnsaved());
  private readonly updateStmts = new StatementCache();

  constructor(
    private readonly db: Db,
    /** The store's NORMAL connection, for updateUnsynced; absent: those updates are FULL too. */
    private readonly writer?: UnsyncedWriter,
  ) {
    this.byIdStmt = db.prepare(`${SELECT} WHERE id = ?`);
    this.byNameStmt = db.prepare(`${SELECT} WHERE name = ?`);
  }

  get(id: number): ConversationRow | undefined {
    return this.kept(fix(this.byIdStmt.get(id) as Raw | undefined));
  }

  byName(name: string): ConversationRow | undefined {
    return this.kept(fix(this.byNameStmt.get(name) as Raw | undefined));
  }

  nameTaken(name: string): boolean {
    return this.db.prepare('SELECT 1 FROM conversations WHERE name = ?').get(name) !== undefined;
  }

  all(opts: { archived?: boolean } = {}): ListedRow[] {
    const where = opts.archived ? '' : ' WHERE archived_at IS NULL';
    return (this.db.prepare(`${SELECT_LISTED}${where} ORDER BY id`).all() as Omit<Raw, 'firstPrompt'>[]).map((r) =>
      this.kept(fix(r))!,
    );
  }

  children(parentId: number): ConversationRow[] {
    return (this.db.prepare(`${SELECT} WHERE parent_id = ? ORDER BY id`).all(parentId) as Raw[]).map((r) =>
      this.kept(fix(r))!,
    );
  }

  /** Rows with no recorded end and no spawn error: the ones a daemon restart must settle. */
  unsettled(): ConversationRow[] {
    return (this.db.prepare(`${SELECT} WHERE ended_at IS NULL AND spawn_error IS NULL ORDER BY id`).all() as Raw[])
      .map((r) => this.kept(fix(r))!)
      .filter((r) => r.endedAt === null && r.spawnError === null);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM conversations').pluck().get() as number;
  }

  insert(r: RowInsert): ConversationRow {
    const info = this.db
      .prepare(
        `INSERT INTO conversations (name, title, kind, parent_id, project, cwd, harness, model, effort, issue_id, bare, extra_env, permissions, host, sandbox, first_prompt, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.name,
        r.title,
        r.kind,
        r.parentId,
        r.project,
        r.cwd,
        r.harness,
        r.model,
        r.effort,
        r.issueId,
        r.bare ? 1 : 0,
        r.extraEnv ? JSON.stringify(r.extraEnv) : null,
        r.permissions,
        r.host,
        r.sandbox,
        r.firstPrompt,
        r.createdAt,
      );
    return this.get(Number(info.lastInsertRowid))!;
  }

  /** A full disk does not lose the update: it is kept, read back, and written once there is space. */
  update(id: number, patch: RowPatch): void {
    this.put(id, patch, this.db);
  }

  /**
   * As update, committed without waiting for the disk (synchronous=NORMAL, on the store's
   * second connection: store/unsyncedWriter.ts): for facts no caller is told of as kept,
   * whose loss to a power cut leaves a state the store was in (a start's session and time,
   * like the transcript rows beside them). Read back at once; kept across a daemon crash.
   */
  updateUnsynced(id: number, patch: RowPatch): void {
    this.put(id, patch, this.writer?.connection() ?? this.db);
  }

  private put(id: number, patch: RowPatch, conn: Db): void {
    const merged = { ...this.unsaved.get(id), ...patch };
    try {
      this.write(id, merged, conn);
      this.unsaved.delete(id);
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      if (!this.unsaved.has(id))
        log.warn(
          `conversation #${id}: the store refused a write (${(e as Error).message}); kept in memory until it can be written`,
        );
      this.unsaved.set(id, merged);
      this.retrier.schedule();
    }
  }

  private write(id: number, patch: RowPatch, conn: Db = this.db): void {
    const keys = Object.keys(patch) as (keyof RowPatch)[];
    if (keys.length === 0) return;
    // Each set of columns is prepared once per connection: a start alone updates a row several times.
    const sql = `UPDATE conversations SET ${keys.map((k) => `${COLUMN[k]} = ?`).join(', ')} WHERE id = ?`;
    this.updateStmts.get(conn, sql).run(...keys.map((k) => patch[k] ?? null), id);
  }

  /** True once nothing is left unsaved. */
  private writeUnsaved(): boolean {
    if (!this.db.open) return true;
    for (const [id, patch] of [...this.unsaved]) {
      try {
        this.write(id, patch);
        this.unsaved.delete(id);
        log.info(`conversation #${id}: the kept update is written`);
      } catch (e) {
        if (!isDiskFull(e)) {
          log.error(`conversation #${id}: a kept update cannot be written`, e);
          this.unsaved.delete(id);
        }
        return this.unsaved.size === 0;
      }
    }
    return true;
  }

  private kept<R extends { id: number }>(row: R | undefined): R | undefined {
    const patch = row && this.unsaved.get(row.id);
    return patch ? { ...row, ...patch } : row;
  }
}
