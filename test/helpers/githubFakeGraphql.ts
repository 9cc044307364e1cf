// The GraphQL the GitHub fake answers, which is what svc sends: a PR's review threads (each
// its node id, resolution and comment ids; every comment svc posts opens a thread of its
// own) and resolveReviewThread.
import { textOf } from '../../shared/format/text';
import type { Reply } from './githubFakeReplies';
import type { FakeState, Json } from './githubFakeState';

export function graphql(s: FakeState, body: Json): Reply {
  const query = textOf(body.query);
  const v = (body.variables ?? {}) as Json;
  if (/resolveReviewThread/.test(query)) {
    const m = /^PRRT_(\d+)$/.exec(textOf(v.threadId));
    const known = m && [...s.lineComments.values()].some((l) => l.some((c) => c.id === Number(m[1])));
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
    s.resolvedThreads.add(Number(m[1]));
    return {
      status: 200,
      body: { data: { resolveReviewThread: { thread: { id: textOf(v.threadId), isResolved: true } } } },
    };
  }
  if (!/reviewThreads/.test(query) || v.owner !== s.o.owner || v.repo !== s.o.repo)
    return { status: 200, body: { data: null, errors: [{ message: 'the fake answers only reviewThreads' }] } };
  const pr = s.pulls.find((x) => x.number === v.number);
  const nodes = (pr ? (s.lineComments.get(pr.number) ?? []) : []).map((c) => ({
    id: `PRRT_${c.id as number}`,
    isResolved: s.resolvedThreads.has(c.id as number),
    comments: { nodes: [{ databaseId: c.id }] },
  }));
  const pullRequest = pr ? { reviewThreads: { pageInfo: { hasNextPage: false, endCursor: null }, nodes } } : null;
  return { status: 200, body: { data: { repository: { pullRequest } } } };
}
