// Where the GitHub fake sends a request: GET /user (403 for an App installation's token),
// POST /graphql, and the routes of the one repository it serves (any other is 404).
import { accessRoutes } from './githubFakeAccess';
import { commitRoutes } from './githubFakeCommits';
import { graphql } from './githubFakeGraphql';
import { pullRoutes } from './githubFakePulls';
import { err } from './githubFakeReplies';
import type { Reply } from './githubFakeReplies';
import { reviewRoutes } from './githubFakeReviews';
import type { FakeState, Json } from './githubFakeState';

export function route(s: FakeState, method: string, url: URL, login: string, body: Json): Reply {
  const p = url.pathname;
  // App installation and Actions tokens may not read /user.
  if (method === 'GET' && p === '/user')
    return s.integrations.has(login)
      ? err(403, 'Resource not accessible by integration')
      : { status: 200, body: s.shapes().authenticatedUser(login) };
  if (method === 'POST' && p === '/graphql') return graphql(s, body);
  const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(p);
  if (!m || m[1] !== s.o.owner || m[2] !== s.o.repo) return err(404, 'Not Found');
  const rest = m[3] ?? '/';
  if (rest === '/' && method === 'GET') {
    return {
      status: 200,
      body: s.shapes().fullRepository({
        default_branch: 'main',
        allow_merge_commit: s.allowed.merge,
        allow_squash_merge: s.allowed.squash,
        allow_rebase_merge: s.allowed.rebase,
      }),
    };
  }
  const ask = { method, url, rest, login, body };
  return (
    pullRoutes(s, ask) ?? reviewRoutes(s, ask) ?? commitRoutes(s, ask) ?? accessRoutes(s, ask) ?? err(404, 'Not Found')
  );
}
