// Issue rows (migration 350). Synchronous SQL; the id counter is taken inside the insert's
// transaction so two `svc issue new` never get the same number.
import type { Db } from '../store/db';
import { issueBranch, issueId, normaliseIssueId } from './issueIds';
import { unknownIssueError } from './issueRefusals';

export interface IssueRow {
  id: string;
  project: string;
  number: number;
  title: string;
  body: string;
  branch: string;
  workspace: string;
  createdAt: number;
}

const SELECT = 'SELECT id, project, number, title, body, branch, workspace, created_at AS createdAt FROM issues';

export class IssueStore {
  constructor(private readonly db: Db) {}

  get(id: string): IssueRow | undefined {
    return this.db.prepare(`${SELECT} WHERE id = ?`).get(id) as IssueRow | undefined;
  }

  /** `web-7` or `WEB-7`; refuses a malformed id or an unknown issue. */
  resolve(ref: string): IssueRow {
    const id = normaliseIssueId(ref);
    const row = this.get(id);
    if (!row) throw unknownIssueError(id);
    return row;
  }

  byBranch(project: string, branch: string): IssueRow | undefined {
    return this.db.prepare(`${SELECT} WHERE project = ? AND branch = ?`).get(project, branch) as IssueRow | undefined;
  }

  all(project?: string): IssueRow[] {
    if (project)
      return this.db.prepare(`${SELECT} WHERE project = ? ORDER BY created_at, number`).all(project) as IssueRow[];
    return this.db.prepare(`${SELECT} ORDER BY created_at, project, number`).all() as IssueRow[];
  }

  /** The id the next issue of `project` gets. */
  nextNumber(project: string): number {
    return this.db
      .prepare('SELECT COALESCE(MAX(number), 0) + 1 FROM issues WHERE project = ?')
      .pluck()
      .get(project) as number;
  }

  /** Inserts with the number given (taken by the caller from nextNumber inside the same transaction). */
  insert(r: {
    project: string;
    number: number;
    title: string;
    body: string;
    workspace: string;
    createdAt: number;
  }): IssueRow {
    const id = issueId(r.project, r.number);
    this.db
      .prepare(
        'INSERT INTO issues (id, project, number, title, body, branch, workspace, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(id, r.project, r.number, r.title, r.body, issueBranch(id), r.workspace, r.createdAt);
    return this.get(id)!;
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM issues WHERE id = ?').run(id);
  }
}
