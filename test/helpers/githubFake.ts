// A local stand-in for the GitHub REST API on 127.0.0.1, for the routes svc uses. It
// answers GitHub-shaped payloads over a real bare repository (branch heads are read with
// git, merges are real commits): the 422 own-PR refusal, Link-header pagination (pages
// are capped at `maxPerPage`, so clients must follow `next`), the combined status
// (`pending` with total_count 0 when there are none), check runs, bad credentials, and
// ETags with 304 answers to conditional GETs.
// Octokit 22 uses native fetch, which nock cannot intercept; a real server can.
// The parts: githubFakeState (what it holds), githubFakeRoutes and the route files
// (githubFakePulls, githubFakeReviews, githubFakeCommits, githubFakeAccess,
// githubFakeGraphql), githubFakeServer (HTTP, ETags, the record of requests) and
// githubFakeControls (what a test does to it).
import type { GithubFake } from './githubFakeApi';
import { fakeControls } from './githubFakeControls';
import { serveFake } from './githubFakeServer';
import { newFakeState } from './githubFakeState';

export type { FakeCheckRun, GithubFake } from './githubFakeApi';

export async function startGithubFake(o: {
  owner: string;
  repo: string;
  gitDir: string;
  maxPerPage?: number;
}): Promise<GithubFake> {
  const at = { url: '', maxPerPage: o.maxPerPage ?? 100 };
  const s = newFakeState({ owner: o.owner, repo: o.repo, gitDir: o.gitDir }, at);
  const fake: GithubFake = {
    url: '',
    requests: [],
    responses: [],
    // Routes read the page size from the state's address; a test may change it on the fake.
    get maxPerPage() {
      return at.maxPerPage;
    },
    set maxPerPage(n: number) {
      at.maxPerPage = n;
    },
    ...fakeControls(s),
    close: () => new Promise((r) => server.close(() => r())),
  };
  const server = await serveFake(s, fake);
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
