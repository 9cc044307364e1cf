// The GitHub adapter beyond the shared contract, against the local fake: check runs,
// credentials, which token is used for what.
import * as assert from 'node:assert/strict';
import type { CodeHost } from '../../server/codehost/codeHost';
import { GithubHost } from '../../server/codehost/github/githubHost';
import { createHost } from '../../server/codehost/hostFactory';
import { prDetail } from '../../server/codehost/prState';
import { openDb } from '../../server/store/db';
import { ConfigFile, Project } from '../../shared/config';
import { SvcError } from '../../shared/errors';
import { makeRemote } from '../helpers/codehostFixtures';
import type { RemoteFixture } from '../helpers/codehostFixtures';
import { startGithubFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';

describe('GitHub code host (fake)', function () {
  this.timeout(30_000);
  let r: RemoteFixture;
  let fake: GithubFake;
  let svc: GithubHost;
  let bob: GithubHost;

  before(async () => {
    r = makeRemote('codehost-gh');
    fake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir: r.gitDir, maxPerPage: 2 });
    fake.addUser('token-svc', 'svc');
    fake.addUser('token-bob', 'bob');
    const base = { project: 'web', owner: 'acme', repo: 'web', token: 'token-svc', baseUrl: fake.url, defaultBase: 'main' };
    svc = new GithubHost(base);
    bob = new GithubHost({ ...base, reviewerToken: 'token-bob' });
  });
  after(async () => {
    await fake.close();
    r.dispose();
  });

  const ready = async (host: CodeHost, n: number) => (await prDetail(host, (await host.getPullRequest(n))!)).readiness;

  it('check runs count with statuses: queued and in progress are pending; the conclusion decides once completed', async () => {
    const head = r.push('checks');
    const pr = await svc.createPullRequest({ branch: 'checks', title: 'C' });
    await bob.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    fake.addCheckRun(head, { name: 'build', status: 'in_progress' });
    fake.addCheckRun(head, { name: 'lint', status: 'completed', conclusion: 'skipped' });
    fake.addCheckRun(head, { name: 'docs', status: 'completed', conclusion: 'neutral' });
    assert.deepEqual(await svc.listChecks(head), [
      { name: 'build', source: 'check_run', state: 'in_progress' },
      { name: 'lint', source: 'check_run', state: 'skipped' },
      { name: 'docs', source: 'check_run', state: 'neutral' },
    ]);
    const pending = await ready(svc, pr.number);
    assert.deepEqual([pending.ready, pending.checks, pending.reasons], [false, 'pending', ["check 'build' is in_progress"]]);
    fake.addCheckRun(head, { name: 'test', status: 'completed', conclusion: 'failure' });
    assert.deepEqual((await ready(svc, pr.number)).reasons, ["check 'build' is in_progress", "check 'test' is failure"]);
  });

  it('the reviewer token writes as a second identity; the PR is still opened with the main token', async () => {
    r.push('second');
    const pr = await bob.createPullRequest({ branch: 'second', title: 'S' });
    assert.equal(pr.author, 'svc');
    assert.equal(await bob.whoami(), 'bob');
    const c = await bob.createComment(pr.number, 'hello');
    assert.equal(c.author, 'bob');
    const byWhom = fake.requests.filter((q) => q.method === 'POST').slice(-2).map((q) => [q.path, q.login]);
    assert.deepEqual(byWhom, [['/repos/acme/web/pulls', 'svc'], [`/repos/acme/web/issues/${pr.number}/comments`, 'bob']]);
  });

  it('GITHUB_TOKEN wins over codehost.github.token; api_url points Octokit at the fake', async () => {
    const project = Project.parse({ path: r.work, code_host: 'github', github: { owner: 'acme', repo: 'web', api_url: fake.url } });
    const config = ConfigFile.parse({ codehost: { github: { token: 'token-svc' } } });
    const db = openDb(':memory:');
    const deps = { db, now: () => Date.now(), env: {} };
    assert.equal(await createHost('web', project, config, deps).whoami(), 'svc');
    assert.equal(await createHost('web', project, config, { ...deps, env: { GITHUB_TOKEN: 'token-bob' } }).whoami(), 'bob');
    const reviewer = ConfigFile.parse({ codehost: { github: { token: 'token-svc', reviewer_token: 'token-bob' } } });
    assert.equal(await createHost('web', project, reviewer, deps).whoami(), 'bob');
    db.close();
  });

  it('a token GitHub does not know is refused plainly, and nothing is written', async () => {
    const before = fake.requests.length;
    const stranger = new GithubHost({ project: 'web', owner: 'acme', repo: 'web', token: 'nope', baseUrl: fake.url, defaultBase: 'main' });
    await stranger.createComment(1, 'hi').then(
      () => assert.fail('expected a refusal'),
      (e) => {
        assert.ok(e instanceof SvcError);
        assert.deepEqual([e.kind, e.reason, e.message], ['refused', 'githubAuth', 'GitHub refused the token when asked to comment on PR #1 (401 Bad credentials); set GITHUB_TOKEN or codehost.github.token']);
      },
    );
    assert.deepEqual(fake.requests.slice(before).map((q) => [q.method, q.login]), [['POST', undefined]]);
  });
});
