// What the GitHub fake (githubFake.ts) holds: its users, pull requests, reviews, comments,
// statuses and check runs, and the helpers its routes share to read the bare repository
// it stands over (branch heads, commits, a PR's diff hunks) and to shape a PR as GitHub does.
import { spawnSync } from 'node:child_process';
import { GithubShapes } from './githubShapes';

export type Json = Record<string, unknown>;

export type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
export const PUSH_ROLES = new Set(['admin', 'maintain', 'write']);

export interface Pull {
  headRepoGone?: boolean;
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  user: string;
  state: 'open' | 'closed';
  draft: boolean;
  mergeable: boolean | null;
  mergeable_state: string;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  merge_commit_sha: string | null;
  mergedHead: string | null;
}

export const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
/** A second later than `iso` (GitHub's stamps have whole seconds). */
export const later = (iso: string) =>
  new Date(Math.max(Date.parse(iso) + 1000, Date.now())).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Where the fake answers (known once its server listens) and its page size. */
export interface FakeAddress {
  url: string;
  maxPerPage: number;
}

export interface FakeState {
  o: { owner: string; repo: string; gitDir: string };
  at: FakeAddress;
  tokens: Map<string, string>;
  allowed: { merge: boolean; squash: boolean; rebase: boolean };
  failures: { status: number; message: string; headers: Record<string, string> }[];
  people: Map<string, { association: string; permission: string }>;
  integrations: Set<string>;
  pulls: Pull[];
  reviews: Map<number, Json[]>;
  comments: Map<number, Json[]>;
  /** Review comments on lines, per PR; a resolved thread is one whose first comment id is in `resolvedThreads`. */
  lineComments: Map<number, Json[]>;
  resolvedThreads: Set<number>;
  statuses: Map<string, Json[]>;
  checkRuns: Map<string, Json[]>;
  /** The next id of anything the fake makes (reviews, comments, statuses, check runs). */
  nextId(): number;
  shapes(): GithubShapes;
  association(login: string): string;
  git(...args: string[]): { status: number | null; stdout: string };
  branchSha(branch: string): string | null;
  isCommit(sha: string): boolean;
  headOf(p: Pull): string | null;
  /** The new-side line ranges of `file`'s hunks in the diff from the merge base with `base` to `commit`. */
  diffHunks(base: string, commit: string, file: string): { start: number; end: number }[];
  pullJson(p: Pull): Json;
}

export function newFakeState(o: { owner: string; repo: string; gitDir: string }, at: FakeAddress): FakeState {
  let id = 1000;
  // Built once the server listens (the objects carry URLs under its address).
  let shapesOf: GithubShapes | undefined;
  const s: FakeState = {
    o,
    at,
    tokens: new Map(),
    allowed: { merge: true, squash: true, rebase: true },
    failures: [],
    people: new Map(),
    integrations: new Set(),
    pulls: [],
    reviews: new Map(),
    comments: new Map(),
    lineComments: new Map(),
    resolvedThreads: new Set(),
    statuses: new Map(),
    checkRuns: new Map(),
    nextId: () => id++,
    shapes: () => (shapesOf ??= new GithubShapes(at.url, o.owner, o.repo)),
    association: (login) => s.people.get(login)?.association ?? 'NONE',
    git: (...args) => spawnSync('git', [`--git-dir=${o.gitDir}`, ...args], { encoding: 'utf8' }),
    branchSha: (b) => {
      const r = s.git('rev-parse', '--verify', '--quiet', `refs/heads/${b}^{commit}`);
      return r.status === 0 ? r.stdout.trim() : null;
    },
    isCommit: (sha) => /^[0-9a-f]{40}$/.test(sha) && s.git('cat-file', '-e', `${sha}^{commit}`).status === 0,
    headOf: (p) => p.mergedHead ?? s.branchSha(p.head),
    diffHunks: (base, commit, file) => {
      const mb = s.git('merge-base', `refs/heads/${base}`, commit).stdout.trim();
      const diff = mb ? s.git('diff', '-U3', '--no-color', mb, commit, '--', file).stdout : '';
      const out: { start: number; end: number }[] = [];
      for (const m of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
        const count = m[2] === undefined ? 1 : Number(m[2]);
        if (count > 0) out.push({ start: Number(m[1]), end: Number(m[1]) + count - 1 });
      }
      return out;
    },
    pullJson: (p) =>
      s.shapes().pullRequest({
        number: p.number,
        title: p.title,
        body: p.body,
        state: p.state,
        draft: p.draft,
        user: p.user,
        association: s.association(p.user),
        head: { ref: p.head, sha: s.headOf(p), repoGone: p.headRepoGone },
        base: { ref: p.base, sha: s.branchSha(p.base) },
        created_at: p.created_at,
        updated_at: p.updated_at,
        merged_at: p.merged_at,
        merge_commit_sha: p.merge_commit_sha,
        mergeable: p.state === 'open' ? p.mergeable : null,
        mergeable_state: p.state === 'open' ? (p.draft ? 'draft' : p.mergeable_state) : 'unknown',
      }),
  };
  return s;
}
