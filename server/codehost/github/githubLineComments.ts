// A GitHub PR's review comments on lines with their threads' resolution, and resolving a
// finding's threads. REST lists the comments but not which threads are resolved; only
// GraphQL (reviewThreads, resolveReviewThread) says and does that. Everything is done as
// the reviewer identity, which wrote the comments.
import type { LineComment } from '../codeHost';
import { asGithubError } from './githubErrors';
import type { GithubClient } from './githubClient';

type Repo = { owner: string; repo: string };

/** A PR's review threads: resolved or not, and the comments in each (REST does not say). */
const THREADS_QUERY = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved comments(first: 100) { nodes { databaseId } } }
      }
    }
  }
}`;

interface ThreadsAnswer {
  repository?: {
    pullRequest?: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: { id: string; isResolved: boolean; comments: { nodes: { databaseId: number }[] } }[];
      };
    } | null;
  } | null;
}

/** Resolves one review thread, as a person does with "Resolve conversation". */
const RESOLVE_THREAD = `mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

type Thread = ThreadsAnswer extends {
  repository?: { pullRequest?: { reviewThreads: { nodes: (infer T)[] } } | null } | null;
}
  ? T
  : never;

/** Review comments (REST) with their threads' resolution, which only GraphQL reports. */
export async function listLineComments(client: GithubClient, repo: Repo, number: number): Promise<LineComment[]> {
  try {
    const rows = await client.paginate(client.pulls.listReviewComments, {
      ...repo,
      pull_number: number,
      per_page: 100,
    });
    const resolved = await resolvedCommentIds(client, repo, number);
    return rows.map((c) => ({
      id: c.id,
      reviewId: c.pull_request_review_id ?? 0,
      path: c.path,
      line: c.line ?? c.original_line ?? 0,
      startLine: c.start_line ?? null,
      body: c.body,
      resolved: resolved.has(c.id) || (c.in_reply_to_id !== undefined && resolved.has(c.in_reply_to_id)),
    }));
  } catch (e) {
    throw asGithubError(e, `list the review comments of PR #${number}`);
  }
}

/** The database ids of the comments of the PR's resolved review threads. */
async function resolvedCommentIds(client: GithubClient, repo: Repo, number: number): Promise<Set<number>> {
  const out = new Set<number>();
  for (const t of await threads(client, repo, number))
    if (t.isResolved) for (const c of t.comments.nodes) out.add(c.databaseId);
  return out;
}

/** The PR's review threads (GraphQL: REST does not say which are resolved). */
async function threads(client: GithubClient, repo: Repo, number: number): Promise<Thread[]> {
  const out: Thread[] = [];
  let after: string | null = null;
  for (let page = 0; page < 20; page++) {
    const r: ThreadsAnswer = await client.graphql(THREADS_QUERY, { ...repo, number, after });
    const found = r.repository?.pullRequest?.reviewThreads;
    if (!found) break;
    out.push(...found.nodes);
    if (!found.pageInfo.hasNextPage) break;
    after = found.pageInfo.endCursor;
  }
  return out;
}

/** Resolves the open threads whose comments carry `needle` (a finding's marker). */
export async function resolveLineComments(
  client: GithubClient,
  repo: Repo,
  number: number,
  needle: string,
): Promise<number> {
  try {
    const ids = new Set(
      (await listLineComments(client, repo, number)).filter((c) => c.body.includes(needle)).map((c) => c.id),
    );
    let n = 0;
    for (const t of await threads(client, repo, number)) {
      if (t.isResolved || !t.comments.nodes.some((c) => ids.has(c.databaseId))) continue;
      await client.graphql(RESOLVE_THREAD, { threadId: t.id });
      n++;
    }
    return n;
  } catch (e) {
    throw asGithubError(e, `resolve the review threads of PR #${number}`);
  }
}
