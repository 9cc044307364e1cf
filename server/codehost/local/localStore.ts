// The local host's rows: PRs, reviews, comments, commit statuses (migrations 301–304).
// One project's view of the tables; timestamps are stored as epoch ms, shown as ISO.
import type { Comment, CommitStatus, LineComment, PrState, Review, StatusState } from '../../../shared/protocol/pr';
import type { Db } from '../../store/db';

/** Whoever can write to the local store can push to the bare repository it serves. */
const LOCAL_ACCESS = { association: null, writeAccess: true } as const;

export interface PrRow {
  id: number;
  project: string;
  number: number;
  title: string;
  body: string;
  head_branch: string;
  base_branch: string;
  author: string;
  state: PrState;
  draft: number;
  last_head_sha: string | null;
  created_at: number;
  merged_at: number | null;
  merge_sha: string | null;
  merged_head_sha: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class LocalStore {
  constructor(
    private readonly db: Db,
    readonly project: string,
  ) {}

  /** Undefined when another PR was opened for the branch meanwhile (the unique index said no). */
  insertPr(p: {
    title: string;
    body: string;
    branch: string;
    base: string;
    author: string;
    head: string;
    at: number;
  }): PrRow | undefined {
    try {
      return this.insertPrTx(p);
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
      throw e;
    }
  }

  private insertPrTx(p: {
    title: string;
    body: string;
    branch: string;
    base: string;
    author: string;
    head: string;
    at: number;
  }): PrRow {
    return this.db.transaction(() => {
      const number = this.db
        .prepare('SELECT COALESCE(MAX(number), 0) + 1 FROM pull_requests WHERE project = ?')
        .pluck()
        .get(this.project) as number;
      this.db
        .prepare(
          `INSERT INTO pull_requests (project, number, title, body, head_branch, base_branch, author, state, last_head_sha, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)`,
        )
        .run(this.project, number, p.title, p.body, p.branch, p.base, p.author, p.head, p.at, p.at);
      return this.pr(number)!;
    })();
  }

  pr(number: number): PrRow | undefined {
    return this.db.prepare('SELECT * FROM pull_requests WHERE project = ? AND number = ?').get(this.project, number) as
      PrRow | undefined;
  }

  /** The open PR of a branch, else its newest. */
  prForBranch(branch: string): PrRow | undefined {
    return this.db
      .prepare(
        `SELECT * FROM pull_requests WHERE project = ? AND head_branch = ? ORDER BY state = 'open' DESC, number DESC LIMIT 1`,
      )
      .get(this.project, branch) as PrRow | undefined;
  }

  prs(state: PrState | 'all'): PrRow[] {
    const sql = `SELECT * FROM pull_requests WHERE project = ?${state === 'all' ? '' : ' AND state = ?'} ORDER BY number DESC`;
    const args = state === 'all' ? [this.project] : [this.project, state];
    return this.db.prepare(sql).all(...args) as PrRow[];
  }

  /** Records a new head seen on the remote; false when another rescan already recorded it. */
  moveHead(id: number, before: string | null, after: string, at: number): boolean {
    return (
      this.db
        .prepare('UPDATE pull_requests SET last_head_sha = ?, updated_at = ? WHERE id = ? AND last_head_sha IS ?')
        .run(after, at, id, before).changes === 1
    );
  }

  markMerged(id: number, headSha: string, mergeSha: string, at: number): void {
    this.db
      .prepare(
        `UPDATE pull_requests SET state = 'merged', merged_at = ?, merge_sha = ?, merged_head_sha = ?, updated_at = ? WHERE id = ? AND state = 'open'`,
      )
      .run(at, mergeSha, headSha, at, id);
  }

  insertReview(
    prId: number,
    r: { author: string; state: Review['state']; body: string; commitId: string; at: number },
    comments: readonly { path: string; line: number; startLine?: number; body: string }[] = [],
  ): Review {
    // One transaction: the review and its line comments are written together or not at all.
    const info = this.db.transaction(() => {
      const row = this.db
        .prepare(
          'INSERT INTO pr_reviews (pr_id, author, state, body, commit_id, submitted_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(prId, r.author, r.state, r.body, r.commitId, r.at);
      for (const c of comments) this.insertLineComment(Number(row.lastInsertRowid), c);
      return row;
    })();
    return {
      id: Number(info.lastInsertRowid),
      author: r.author,
      state: r.state,
      body: r.body,
      commitId: r.commitId,
      submittedAt: iso(r.at),
      ...LOCAL_ACCESS,
    };
  }

  private insertLineComment(
    reviewId: number,
    c: { path: string; line: number; startLine?: number; body: string },
  ): void {
    this.db
      .prepare('INSERT INTO pr_review_comments (review_id, path, line, start_line, body) VALUES (?, ?, ?, ?, ?)')
      .run(reviewId, c.path, c.line, c.startLine ?? null, c.body);
  }

  lineComments(prId: number): LineComment[] {
    const rows = this.db
      .prepare(
        `SELECT c.* FROM pr_review_comments c JOIN pr_reviews r ON r.id = c.review_id WHERE r.pr_id = ? ORDER BY c.id`,
      )
      .all(prId) as {
      id: number;
      review_id: number;
      path: string;
      line: number;
      start_line: number | null;
      body: string;
      resolved: number;
    }[];
    return rows.map((r) => ({
      id: r.id,
      reviewId: r.review_id,
      path: r.path,
      line: r.line,
      startLine: r.start_line,
      body: r.body,
      resolved: r.resolved === 1,
    }));
  }

  /** Marks a PR's line comments whose body holds `needle` resolved; how many changed. */
  resolveLineComments(prId: number, needle: string): number {
    return this.db
      .prepare(
        `UPDATE pr_review_comments SET resolved = 1 WHERE resolved = 0 AND instr(body, ?) > 0
           AND review_id IN (SELECT id FROM pr_reviews WHERE pr_id = ?)`,
      )
      .run(needle, prId).changes;
  }

  reviews(prId: number): Review[] {
    const rows = this.db.prepare('SELECT * FROM pr_reviews WHERE pr_id = ? ORDER BY id').all(prId) as {
      id: number;
      author: string;
      state: Review['state'];
      body: string;
      commit_id: string;
      submitted_at: number;
    }[];
    return rows.map((r) => ({
      id: r.id,
      author: r.author,
      state: r.state,
      body: r.body,
      commitId: r.commit_id,
      submittedAt: iso(r.submitted_at),
      ...LOCAL_ACCESS,
    }));
  }

  insertComment(prId: number, c: { author: string; body: string; at: number }): Comment {
    const info = this.db
      .prepare('INSERT INTO pr_comments (pr_id, author, body, created_at) VALUES (?, ?, ?, ?)')
      .run(prId, c.author, c.body, c.at);
    return {
      id: Number(info.lastInsertRowid),
      author: c.author,
      body: c.body,
      createdAt: iso(c.at),
      updatedAt: iso(c.at),
    };
  }

  comments(prId: number): Comment[] {
    const rows = this.db.prepare('SELECT * FROM pr_comments WHERE pr_id = ? ORDER BY id').all(prId) as {
      id: number;
      author: string;
      body: string;
      created_at: number;
    }[];
    // Local comments cannot be edited.
    return rows.map((r) => ({
      id: r.id,
      author: r.author,
      body: r.body,
      createdAt: iso(r.created_at),
      updatedAt: iso(r.created_at),
    }));
  }

  insertStatus(s: {
    sha: string;
    context: string;
    state: StatusState;
    description?: string;
    targetUrl?: string;
    creator: string;
    at: number;
  }): CommitStatus {
    this.db
      .prepare(
        'INSERT INTO commit_statuses (project, sha, context, state, description, target_url, creator, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(this.project, s.sha, s.context, s.state, s.description ?? null, s.targetUrl ?? null, s.creator, s.at);
    return {
      context: s.context,
      state: s.state,
      description: s.description ?? null,
      targetUrl: s.targetUrl ?? null,
      creator: s.creator,
      createdAt: iso(s.at),
    };
  }

  /** The latest status of each context, by context name (as GitHub's combined status). */
  statuses(sha: string): CommitStatus[] {
    const rows = this.db
      .prepare(
        `SELECT s.* FROM commit_statuses s
         JOIN (SELECT context, MAX(id) AS id FROM commit_statuses WHERE project = ? AND sha = ? GROUP BY context) latest ON latest.id = s.id
         ORDER BY s.context`,
      )
      .all(this.project, sha) as {
      context: string;
      state: StatusState;
      description: string | null;
      target_url: string | null;
      creator: string;
      created_at: number;
    }[];
    return rows.map((r) => ({
      context: r.context,
      state: r.state,
      description: r.description,
      targetUrl: r.target_url,
      creator: r.creator,
      createdAt: iso(r.created_at),
    }));
  }
}
