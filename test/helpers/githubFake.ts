// A local stand-in for the GitHub REST API on 127.0.0.1, for the routes svc uses. It
// answers GitHub-shaped payloads over a real bare repository (branch heads are read with
// git, merges are real commits): the 422 own-PR refusal, Link-header pagination (pages
// are capped at `maxPerPage`, so clients must follow `next`), the combined status
// (`pending` with total_count 0 when there are none), check runs, bad credentials, and
// ETags with 304 answers to conditional GETs.
// Octokit 22 uses native fetch, which nock cannot intercept; a real server can.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import { textOf } from '../../shared/format/text';
import { GithubShapes } from './githubShapes';

export interface FakeCheckRun {
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: 'success' | 'failure' | 'neutral' | 'skipped' | 'cancelled' | 'timed_out' | 'action_required' | null;
}

export interface GithubFake {
  url: string;
  /** Every request, in order: what was asked, who asked, and the answer's status. */
  requests: { method: string; path: string; login?: string; status?: number }[];
  /** Every answer with a body, in order (for checking them against GitHub's OpenAPI description). */
  responses: { method: string; path: string; status: number; body: unknown }[];
  /** `association` is what GitHub reports for the user on this repository (default COLLABORATOR);
   *  `permission` the user's role (default: write for OWNER, MEMBER, COLLABORATOR, else
   *  read). GitHub gives a COLLABORATOR or MEMBER association to read and triage roles
   *  too; its permission endpoint answers maintain as write and triage as read, with the
   *  role in role_name. `integration`: an App installation's token (GET /user is 403). */
  addUser(token: string, login: string, o?: { association?: string; permission?: Role; integration?: boolean }): void;
  /** Dismisses a review as a maintainer would (its state becomes DISMISSED). */
  dismissReview(id: number): void;
  /** Resolves the review thread a line comment opened, as a person does on GitHub. */
  resolveThread(commentId: number): void;
  /** Every review comment on lines, oldest first. */
  reviewComments(): Json[];
  /** Deletes a comment, as its author or a maintainer can. */
  deleteComment(id: number): void;
  /** Moves a PR to another base branch (PATCH base), as GitHub does: a new updated_at. */
  editBase(number: number, base: string): { updated_at: string };
  /** The fork a PR's head came from was deleted: GitHub reports `head.repo: null`. */
  deleteHeadRepo(number: number): void;
  /** Edits a comment as GitHub would: same author and created_at, a new updated_at. */
  editComment(id: number, body: string): void;
  /** Moves a review's commit_id, as GitHub has been seen doing across base merges (docs/codehost.md). */
  moveReview(id: number, commitId: string): void;
  /** Sets what `pulls.get` reports for a PR's mergeability (default: mergeable, clean). */
  setMergeable(number: number, mergeable: boolean | null, state: string): void;
  /** Marks a PR as a draft or ready. */
  setDraft(number: number, draft: boolean): void;
  /** The next `n` requests are answered with this status, headers and message instead (outages, rate limits). */
  failNext(n: number, status: number, message: string, headers?: Record<string, string>): void;
  /** Which merge methods the repository allows (default all three). */
  allowMerges(o: { merge: boolean; squash: boolean; rebase: boolean }): void;
  addCheckRun(sha: string, run: FakeCheckRun): void;
  maxPerPage: number;
  close(): Promise<void>;
}

type Role = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
const PUSH_ROLES = new Set(['admin', 'maintain', 'write']);

interface Pull {
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
type Json = Record<string, unknown>;

const stamp = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
/** A second later than `iso` (GitHub's stamps have whole seconds). */
const later = (iso: string) =>
  new Date(Math.max(Date.parse(iso) + 1000, Date.now())).toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function startGithubFake(o: {
  owner: string;
  repo: string;
  gitDir: string;
  maxPerPage?: number;
}): Promise<GithubFake> {
  const tokens = new Map<string, string>();
  const allowed = { merge: true, squash: true, rebase: true };
  const failures: { status: number; message: string; headers: Record<string, string> }[] = [];
  const people = new Map<string, { association: string; permission: string }>();
  const integrations = new Set<string>();
  const association = (login: string) => people.get(login)?.association ?? 'NONE';
  const pulls: Pull[] = [];
  const reviews = new Map<number, Json[]>();
  const comments = new Map<number, Json[]>();
  /** Review comments on lines, per PR; a resolved thread is one whose first comment id is in `resolvedThreads`. */
  const lineComments = new Map<number, Json[]>();
  const resolvedThreads = new Set<number>();
  const statuses = new Map<string, Json[]>();
  const checkRuns = new Map<string, Json[]>();
  let nextId = 1000;
  // Built once the server listens (the objects carry URLs under its address).
  let shapesOf: GithubShapes | undefined;
  const shapes = () => (shapesOf ??= new GithubShapes(fake.url, o.owner, o.repo));
  const user = (login: string) => shapes().user(login);
  const git = (...args: string[]) => spawnSync('git', [`--git-dir=${o.gitDir}`, ...args], { encoding: 'utf8' });
  const branchSha = (b: string) => {
    const r = git('rev-parse', '--verify', '--quiet', `refs/heads/${b}^{commit}`);
    return r.status === 0 ? r.stdout.trim() : null;
  };
  const isCommit = (sha: string) => /^[0-9a-f]{40}$/.test(sha) && git('cat-file', '-e', `${sha}^{commit}`).status === 0;
  const headOf = (p: Pull) => p.mergedHead ?? branchSha(p.head);
  /** The new-side line ranges of `file`'s hunks in the diff from the merge base with `base` to `commit`. */
  const diffHunks = (base: string, commit: string, file: string) => {
    const mb = git('merge-base', `refs/heads/${base}`, commit).stdout.trim();
    const diff = mb ? git('diff', '-U3', '--no-color', mb, commit, '--', file).stdout : '';
    const out: { start: number; end: number }[] = [];
    for (const m of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
      const count = m[2] === undefined ? 1 : Number(m[2]);
      if (count > 0) out.push({ start: Number(m[1]), end: Number(m[1]) + count - 1 });
    }
    return out;
  };
  const pullJson = (p: Pull) =>
    shapes().pullRequest({
      number: p.number,
      title: p.title,
      body: p.body,
      state: p.state,
      draft: p.draft,
      user: p.user,
      association: association(p.user),
      head: { ref: p.head, sha: headOf(p), repoGone: p.headRepoGone },
      base: { ref: p.base, sha: branchSha(p.base) },
      created_at: p.created_at,
      updated_at: p.updated_at,
      merged_at: p.merged_at,
      merge_commit_sha: p.merge_commit_sha,
      mergeable: p.state === 'open' ? p.mergeable : null,
      mergeable_state: p.state === 'open' ? (p.draft ? 'draft' : p.mergeable_state) : 'unknown',
    });

  const fake: GithubFake = {
    url: '',
    requests: [],
    responses: [],
    maxPerPage: o.maxPerPage ?? 100,
    addUser: (token, login, opts = {}) => {
      tokens.set(token, login);
      if (opts.integration) integrations.add(login);
      const assoc = opts.association ?? 'COLLABORATOR';
      people.set(login, {
        association: assoc,
        permission: opts.permission ?? (['OWNER', 'MEMBER', 'COLLABORATOR'].includes(assoc) ? 'write' : 'read'),
      });
    },
    editComment: (id, body) => {
      for (const list of comments.values()) {
        const c = list.find((x) => x.id === id);
        if (c) return void Object.assign(c, { body, updated_at: later(c.updated_at as string) });
      }
      throw new Error(`no comment ${id}`);
    },
    dismissReview: (id) => {
      for (const list of reviews.values()) {
        const r = list.find((x) => x.id === id);
        if (r) return void Object.assign(r, { state: 'DISMISSED' });
      }
      throw new Error(`no review ${id}`);
    },
    resolveThread: (id) => {
      if (![...lineComments.values()].some((l) => l.some((c) => c.id === id)))
        throw new Error(`no review comment ${id}`);
      resolvedThreads.add(id);
    },
    reviewComments: () => [...lineComments.values()].flat(),
    deleteComment: (id) => {
      for (const [n, list] of comments) {
        const i = list.findIndex((x) => x.id === id);
        if (i >= 0)
          return void comments.set(
            n,
            list.filter((_, j) => j !== i),
          );
      }
      throw new Error(`no comment ${id}`);
    },
    editBase: (number, base) => {
      const pr = pulls.find((x) => x.number === number)!;
      if (!branchSha(base)) throw new Error(`no branch ${base}`);
      Object.assign(pr, { base, updated_at: later(pr.updated_at) });
      return { updated_at: pr.updated_at };
    },
    deleteHeadRepo: (number) =>
      void Object.assign(
        pulls.find((x) => x.number === number)!,
        { headRepoGone: true },
      ),
    moveReview: (id, commitId) => {
      for (const list of reviews.values()) {
        const r = list.find((x) => x.id === id);
        if (r) return void Object.assign(r, { commit_id: commitId });
      }
      throw new Error(`no review ${id}`);
    },
    setMergeable: (number, mergeable, state) =>
      void Object.assign(
        pulls.find((x) => x.number === number)!,
        { mergeable, mergeable_state: state },
      ),
    setDraft: (number, draft) =>
      void Object.assign(
        pulls.find((x) => x.number === number)!,
        { draft },
      ),
    allowMerges: (o) => void Object.assign(allowed, o),
    failNext: (n, status, message, headers = {}) =>
      void failures.push(...Array.from({ length: n }, () => ({ status, message, headers }))),
    addCheckRun: (sha, run) => {
      const list = checkRuns.get(sha) ?? [];
      list.push(
        shapes().checkRun({
          id: nextId++,
          sha,
          name: run.name,
          status: run.status,
          conclusion: run.conclusion ?? null,
        }),
      );
      checkRuns.set(sha, list);
    },
    close: () => new Promise((r) => server.close(() => r())),
  };

  type Reply = { status: number; body: unknown; headers?: Record<string, string> };
  const err = (status: number, message: string, errors?: unknown[]): Reply => ({
    status,
    body: {
      message,
      ...(errors ? { errors } : {}),
      documentation_url: 'https://docs.github.com/rest',
      status: String(status),
    },
  });
  const page = (url: URL, items: unknown[]): Reply => {
    const per = Math.min(Number(url.searchParams.get('per_page') ?? 30), fake.maxPerPage);
    const n = Number(url.searchParams.get('page') ?? 1);
    const last = Math.max(1, Math.ceil(items.length / per));
    const link = (p: number) => {
      const u = new URL(url.toString());
      u.searchParams.set('page', String(p));
      return `<${fake.url}${u.pathname}${u.search}>`;
    };
    const links = [];
    if (n < last) links.push(`${link(n + 1)}; rel="next"`, `${link(last)}; rel="last"`);
    if (n > 1) links.push(`${link(1)}; rel="first"`, `${link(n - 1)}; rel="prev"`);
    return {
      status: 200,
      body: items.slice((n - 1) * per, n * per),
      headers: links.length ? { link: links.join(', ') } : {},
    };
  };
  const latestPerContext = (sha: string) => {
    const latest = new Map<string, Json>();
    for (const s of statuses.get(sha) ?? []) latest.set(s.context as string, s);
    return [...latest.values()].reverse();
  };

  /** The GraphQL svc sends: a PR's review threads (each its node id, resolution and comment
   *  ids; every comment svc posts opens a thread of its own) and resolveReviewThread. */
  function graphql(body: Json): Reply {
    const query = textOf(body.query);
    const v = (body.variables ?? {}) as Json;
    if (/resolveReviewThread/.test(query)) {
      const m = /^PRRT_(\d+)$/.exec(textOf(v.threadId));
      const known = m && [...lineComments.values()].some((l) => l.some((c) => c.id === Number(m[1])));
      if (!m || !known)
        return {
          status: 200,
          body: {
            data: { resolveReviewThread: null },
            errors: [
              {
                type: 'NOT_FOUND',
                message: `Could not resolve to a node with the global id of '${textOf(v.threadId)}'`,
              },
            ],
          },
        };
      resolvedThreads.add(Number(m[1]));
      return {
        status: 200,
        body: { data: { resolveReviewThread: { thread: { id: textOf(v.threadId), isResolved: true } } } },
      };
    }
    if (!/reviewThreads/.test(query) || v.owner !== o.owner || v.repo !== o.repo)
      return { status: 200, body: { data: null, errors: [{ message: 'the fake answers only reviewThreads' }] } };
    const pr = pulls.find((x) => x.number === v.number);
    const nodes = (pr ? (lineComments.get(pr.number) ?? []) : []).map((c) => ({
      id: `PRRT_${c.id as number}`,
      isResolved: resolvedThreads.has(c.id as number),
      comments: { nodes: [{ databaseId: c.id }] },
    }));
    const pullRequest = pr ? { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } } : null;
    return { status: 200, body: { data: { repository: { pullRequest } } } };
  }

  function route(method: string, url: URL, login: string, body: Json): Reply {
    const p = url.pathname;
    // App installation and Actions tokens may not read /user.
    if (method === 'GET' && p === '/user')
      return integrations.has(login)
        ? err(403, 'Resource not accessible by integration')
        : { status: 200, body: shapes().authenticatedUser(login) };
    if (method === 'POST' && p === '/graphql') return graphql(body);
    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(p);
    if (!m || m[1] !== o.owner || m[2] !== o.repo) return err(404, 'Not Found');
    const rest = m[3] ?? '/';
    if (rest === '/' && method === 'GET') {
      return {
        status: 200,
        body: shapes().fullRepository({
          default_branch: 'main',
          allow_merge_commit: allowed.merge,
          allow_squash_merge: allowed.squash,
          allow_rebase_merge: allowed.rebase,
        }),
      };
    }
    let r: RegExpExecArray | null;
    const pull = (n: string) => pulls.find((x) => x.number === Number(n));

    if (rest === '/pulls' && method === 'GET') {
      const state = url.searchParams.get('state') ?? 'open';
      const head = url.searchParams.get('head');
      const list = pulls
        .filter((x) => state === 'all' || x.state === state)
        .filter((x) => !head || `${o.owner}:${x.head}` === head)
        .sort((a, b) => b.number - a.number);
      return page(url, list.map(pullJson));
    }
    if (rest === '/pulls' && method === 'POST') {
      const head = textOf(body.head);
      if (!branchSha(head))
        return err(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
      if (!branchSha(textOf(body.base)))
        return err(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
      if (pulls.some((x) => x.head === head && x.state === 'open')) {
        return err(422, 'Validation Failed', [
          { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${o.owner}:${head}.` },
        ]);
      }
      const now = stamp();
      const pr: Pull = {
        number: pulls.length + 1,
        title: String(body.title),
        body: textOf(body.body),
        head,
        base: String(body.base),
        user: login,
        state: 'open',
        draft: body.draft === true,
        mergeable: true,
        mergeable_state: 'clean',
        created_at: now,
        updated_at: now,
        merged_at: null,
        merge_commit_sha: null,
        mergedHead: null,
      };
      pulls.push(pr);
      return { status: 201, body: pullJson(pr) };
    }
    if ((r = /^\/pulls\/(\d+)$/.exec(rest)) && method === 'GET') {
      const pr = pull(r[1]);
      return pr ? { status: 200, body: pullJson(pr) } : err(404, 'Not Found');
    }
    if ((r = /^\/pulls\/(\d+)\/merge$/.exec(rest)) && method === 'PUT') {
      const pr = pull(r[1]);
      if (!pr) return err(404, 'Not Found');
      if (pr.state !== 'open') return err(405, 'Pull Request is not mergeable');
      const head = branchSha(pr.head)!;
      if (body.sha && body.sha !== head) return err(409, 'Head branch was modified. Review and try the merge again.');
      const base = branchSha(pr.base)!;
      const how = textOf(body.merge_method, 'merge') as 'merge' | 'squash' | 'rebase';
      if (!allowed[how])
        return err(
          405,
          {
            merge: 'Merge commits are not allowed on this repository.',
            squash: 'Squash merges are not allowed on this repository.',
            rebase: 'Rebase merges are not allowed on this repository.',
          }[how],
        );
      const tree = git('merge-tree', '--write-tree', base, head);
      if (tree.status !== 0) return err(405, 'Pull Request is not mergeable');
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: login,
        GIT_AUTHOR_EMAIL: `${login}@users.noreply.github.com`,
        GIT_COMMITTER_NAME: 'GitHub',
        GIT_COMMITTER_EMAIL: 'noreply@github.com',
      };
      // Squash and rebase land the PR's tree as one new commit on the base (a rebase of one commit, which is what the tests push).
      const parents = how === 'merge' ? ['-p', base, '-p', head] : ['-p', base];
      const message =
        how === 'merge' ? `Merge pull request #${pr.number} from ${o.owner}/${pr.head}` : `${pr.title} (#${pr.number})`;
      const commit = spawnSync(
        'git',
        [`--git-dir=${o.gitDir}`, 'commit-tree', tree.stdout.split('\n')[0], ...parents, '-m', message],
        { encoding: 'utf8', env },
      );
      const sha = commit.stdout.trim();
      git('update-ref', `refs/heads/${pr.base}`, sha, base);
      Object.assign(pr, { state: 'closed', merged_at: stamp(), merge_commit_sha: sha, mergedHead: head });
      return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
    }
    if ((r = /^\/pulls\/(\d+)\/reviews$/.exec(rest))) {
      const pr = pull(r[1]);
      if (!pr) return err(404, 'Not Found');
      const list = reviews.get(pr.number) ?? [];
      if (method === 'GET') return page(url, list);
      const event = body.event as string | undefined;
      if (event === 'APPROVE' && login === pr.user)
        return err(422, 'Unprocessable Entity', ['Review Can not approve your own pull request']);
      if (event === 'REQUEST_CHANGES' && login === pr.user)
        return err(422, 'Unprocessable Entity', ['Review Can not request changes on your own pull request']);
      if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && !body.body)
        return err(422, 'Unprocessable Entity', ['Review body is required']);
      const commit = (body.commit_id as string | undefined) ?? headOf(pr);
      if (!commit || !isCommit(commit)) return err(422, 'Unprocessable Entity', [`No commit found for SHA: ${commit}`]);
      // GitHub refuses the whole review when a comment's lines are not in one hunk of the
      // PR's diff at that commit (context lines count; the rest of the file does not).
      const asked = (body.comments as Json[] | undefined) ?? [];
      for (const c of asked) {
        const line = typeof c.line === 'number' ? c.line : NaN;
        const first = typeof c.start_line === 'number' ? c.start_line : line;
        const inHunk = diffHunks(pr.base, commit, textOf(c.path)).some((h) => h.start <= first && line <= h.end);
        if (!inHunk || !c.body)
          return err(422, 'Unprocessable Entity', ['Pull request review thread line must be part of the diff']);
        if (c.start_line !== undefined && (typeof c.start_line !== 'number' || c.start_line >= line))
          return err(422, 'Unprocessable Entity', ['Pull request review thread start line must precede the end line']);
      }
      const state =
        event === 'APPROVE'
          ? 'APPROVED'
          : event === 'REQUEST_CHANGES'
            ? 'CHANGES_REQUESTED'
            : event === 'COMMENT'
              ? 'COMMENTED'
              : 'PENDING';
      const review = shapes().review({
        id: nextId++,
        number: pr.number,
        login,
        association: association(login),
        body: textOf(body.body),
        state,
        commit_id: commit,
        ...(state === 'PENDING' ? {} : { submitted_at: stamp() }),
      });
      list.push(review);
      reviews.set(pr.number, list);
      const onLines = lineComments.get(pr.number) ?? [];
      for (const c of asked)
        onLines.push(
          shapes().reviewComment({
            id: nextId++,
            number: pr.number,
            reviewId: review.id as number,
            login,
            association: association(login),
            body: textOf(c.body),
            path: textOf(c.path),
            line: c.line as number,
            start_line: typeof c.start_line === 'number' ? c.start_line : null,
            commit_id: commit,
            created_at: stamp(),
          }),
        );
      lineComments.set(pr.number, onLines);
      return { status: 200, body: review };
    }
    if ((r = /^\/pulls\/(\d+)\/comments$/.exec(rest)) && method === 'GET') {
      const pr = pull(r[1]);
      if (!pr) return err(404, 'Not Found');
      return page(url, lineComments.get(pr.number) ?? []);
    }
    if ((r = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const pr = pull(r[1]);
      if (!pr) return err(404, 'Not Found');
      const list = comments.get(pr.number) ?? [];
      if (method === 'GET') return page(url, list);
      if (!body.body)
        return err(422, 'Validation Failed', [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
      const now = stamp();
      const c = shapes().issueComment({
        id: nextId++,
        number: pr.number,
        login,
        association: association(login),
        body: textOf(body.body),
        created_at: now,
        updated_at: now,
      });
      list.push(c);
      comments.set(pr.number, list);
      return { status: 201, body: c };
    }
    if ((r = /^\/statuses\/([0-9a-f]+)$/.exec(rest)) && method === 'POST') {
      if (!isCommit(r[1])) return err(422, `No commit found for SHA: ${r[1]}`);
      const s = shapes().status({
        id: nextId++,
        sha: r[1],
        state: String(body.state),
        context: textOf(body.context, 'default'),
        description: (body.description as string | undefined) ?? null,
        target_url: (body.target_url as string | undefined) ?? null,
        creator: login,
        at: stamp(),
      });
      statuses.set(r[1], [...(statuses.get(r[1]) ?? []), s]);
      return { status: 201, body: s };
    }
    if ((r = /^\/commits\/([^/]+)\/status$/.exec(rest)) && method === 'GET') {
      const all = latestPerContext(r[1]);
      const states = all.map((s) => s.state);
      const state =
        all.length === 0 || states.includes('pending')
          ? 'pending'
          : states.some((s) => s === 'failure' || s === 'error')
            ? 'failure'
            : 'success';
      // The combined status lists each status without its creator.
      const paged = page(
        url,
        all.map(({ creator: _creator, ...rest }) => rest),
      );
      return { ...paged, body: shapes().combinedStatus(r[1], state, paged.body as Json[], all.length) };
    }
    if ((r = /^\/commits\/([^/]+)\/check-runs$/.exec(rest)) && method === 'GET') {
      const all = checkRuns.get(r[1]) ?? [];
      const paged = page(url, all);
      return { ...paged, body: { total_count: all.length, check_runs: paged.body } };
    }
    if ((r = /^\/collaborators\/([^/]+)\/permission$/.exec(rest)) && method === 'GET') {
      // Only someone with push access may ask.
      if (!PUSH_ROLES.has(people.get(login)?.permission ?? 'none'))
        return err(403, 'Must have push access to view collaborator permission.');
      const who = decodeURIComponent(r[1]);
      const role = people.get(who)?.permission ?? 'none';
      // The endpoint's `permission` knows only admin, write, read and none; the role is in role_name.
      const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
      return {
        status: 200,
        body: {
          permission,
          role_name: role,
          user: {
            ...user(who),
            role_name: role,
            permissions: {
              admin: role === 'admin',
              maintain: role === 'admin' || role === 'maintain',
              push: PUSH_ROLES.has(role),
              triage: role !== 'none' && role !== 'read',
              pull: role !== 'none',
            },
          },
        },
      };
    }
    if ((r = /^\/git\/ref\/(.+)$/.exec(rest)) && method === 'GET') {
      const ref = decodeURIComponent(r[1]);
      const sha = ref.startsWith('heads/') ? branchSha(ref.slice('heads/'.length)) : null;
      return sha ? { status: 200, body: shapes().gitRef(`refs/${ref}`, sha) } : err(404, 'Not Found');
    }
    return err(404, 'Not Found');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const login = token ? tokens.get(token) : undefined;
      fake.requests.push({ method: req.method ?? 'GET', path: url.pathname, login });
      let reply: Reply;
      const failure = failures.shift();
      if (failure) reply = { ...err(failure.status, failure.message), headers: failure.headers };
      else if (!login) reply = err(401, 'Bad credentials');
      else {
        let body: Json = {};
        try {
          body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json) : {};
        } catch {
          reply = err(400, 'Problems parsing JSON');
        }
        reply ??= route(req.method ?? 'GET', url, login, body);
      }
      const text = JSON.stringify(reply.body);
      // GitHub's conditional requests: a GET carries an ETag, and the same ETag in
      // If-None-Match is answered 304 with no body (not counted against the rate limit).
      if (req.method === 'GET' && reply.status === 200) {
        const etag = `W/"${createHash('sha1')
          .update(text + (reply.headers?.link ?? ''))
          .digest('hex')}"`;
        if (req.headers['if-none-match'] === etag) reply = { status: 304, body: null, headers: { etag } };
        else reply = { ...reply, headers: { ...reply.headers, etag } };
      }
      fake.requests[fake.requests.length - 1].status = reply.status;
      if (reply.status !== 304)
        fake.responses.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          status: reply.status,
          body: reply.body,
        });
      res.writeHead(
        reply.status,
        reply.status === 304
          ? { ...reply.headers }
          : { 'content-type': 'application/json; charset=utf-8', ...reply.headers },
      );
      res.end(reply.status === 304 ? undefined : text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  fake.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return fake;
}

/**
 * The fake as most GitHub tests use it: acme/web over `gitDir`, two items a page, with the
 * service's token (svc), a maintainer reviewer's (bob) and an outsider's (mallory), and
 * the options a GithubHost for it takes.
 */
export async function acmeFake(gitDir: string): Promise<{
  fake: GithubFake;
  base: { project: string; owner: string; repo: string; token: string; baseUrl: string; defaultBase: string };
}> {
  const fake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir, maxPerPage: 2 });
  fake.addUser('token-svc', 'svc');
  fake.addUser('token-bob', 'bob');
  fake.addUser('token-mallory', 'mallory', { association: 'NONE' });
  return {
    fake,
    base: { project: 'web', owner: 'acme', repo: 'web', token: 'token-svc', baseUrl: fake.url, defaultBase: 'main' },
  };
}
