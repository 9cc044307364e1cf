// The GitHub adapter beyond the shared contract, against the local fake: check runs,
// credentials, which token is used for what.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { CodeHost } from '../../server/codehost/codeHost';
import { GithubHost } from '../../server/codehost/github/githubHost';
import { createHost } from '../../server/codehost/hostFactory';
import { verdictMarker } from '../../server/codehost/marker';
import { prDetail } from '../../server/codehost/prState';
import { codeHostMigrations } from '../../server/codehost/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import { ConfigFile, Project } from '../../shared/config';
import { SvcError } from '../../shared/errors';
import { makeRemote } from '../helpers/codehostFixtures';
import type { RemoteFixture } from '../helpers/codehostFixtures';
import { acmeFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';

describe('GitHub code host (fake)', function () {
  this.timeout(30_000);
  let r: RemoteFixture;
  let fake: GithubFake;
  let svc: GithubHost;
  let bob: GithubHost;

  before(async () => {
    r = makeRemote('codehost-gh');
    const made = await acmeFake(r.gitDir);
    fake = made.fake;
    fake.addUser('token-carol', 'carol', { association: 'CONTRIBUTOR', permission: 'write' });
    const base = made.base;
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
    assert.deepEqual(
      [pending.ready, pending.checks, pending.reasons],
      [false, 'pending', ["check 'build' is in_progress"]],
    );
    fake.addCheckRun(head, { name: 'test', status: 'completed', conclusion: 'failure' });
    assert.deepEqual((await ready(svc, pr.number)).reasons, [
      "check 'build' is in_progress",
      "check 'test' is failure",
    ]);
  });

  it('the reviewer token writes as a second identity; the PR is still opened with the main token', async () => {
    r.push('second');
    const pr = await bob.createPullRequest({ branch: 'second', title: 'S' });
    assert.equal(pr.author, 'svc');
    assert.equal(await bob.whoami(), 'bob');
    const c = await bob.createComment(pr.number, 'hello');
    assert.equal(c.author, 'bob');
    const byWhom = fake.requests
      .filter((q) => q.method === 'POST')
      .slice(-2)
      .map((q) => [q.path, q.login]);
    assert.deepEqual(byWhom, [
      ['/repos/acme/web/pulls', 'svc'],
      [`/repos/acme/web/issues/${pr.number}/comments`, 'bob'],
    ]);
  });

  it('GITHUB_TOKEN wins over codehost.github.token; api_url points Octokit at the fake', async () => {
    const project = Project.parse({
      path: r.work,
      code_host: 'github',
      github: { owner: 'acme', repo: 'web', api_url: fake.url },
    });
    const config = ConfigFile.parse({ codehost: { github: { token: 'token-svc' } } });
    const db = openDb(':memory:', [storeMigrations, codeHostMigrations]);
    const deps = { db, now: () => Date.now(), env: {} };
    assert.equal(await createHost('web', project, config, deps).whoami(), 'svc');
    assert.equal(
      await createHost('web', project, config, { ...deps, env: { GITHUB_TOKEN: 'token-bob' } }).whoami(),
      'bob',
    );
    const reviewer = ConfigFile.parse({ codehost: { github: { token: 'token-svc', reviewer_token: 'token-bob' } } });
    assert.equal(await createHost('web', project, reviewer, deps).whoami(), 'bob');
    db.close();
  });

  it('a token GitHub does not know is refused plainly, and nothing is written', async () => {
    const before = fake.requests.length;
    const stranger = new GithubHost({
      project: 'web',
      owner: 'acme',
      repo: 'web',
      token: 'nope',
      baseUrl: fake.url,
      defaultBase: 'main',
    });
    await stranger.createComment(1, 'hi').then(
      () => assert.fail('expected a refusal'),
      (e) => {
        assert.ok(e instanceof SvcError);
        assert.deepEqual(
          [e.kind, e.reason, e.message],
          [
            'refused',
            'githubAuth',
            'GitHub refused the token when asked to comment on PR #1 (401 Bad credentials); set GITHUB_TOKEN or codehost.github.token',
          ],
        );
      },
    );
    assert.deepEqual(
      fake.requests.slice(before).map((q) => [q.method, q.login]),
      [['POST', undefined]],
    );
  });

  const as = (token: string) =>
    new GithubHost({ project: 'web', owner: 'acme', repo: 'web', token, baseUrl: fake.url, defaultBase: 'main' });

  it("counts approvals only from people who can push: the association, else the permission endpoint; svc pr show's notes say why", async () => {
    const head = r.push('trust');
    const pr = await svc.createPullRequest({ branch: 'trust', title: 'T' });
    await as('token-mallory').createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    await as('token-mallory').createReview(pr.number, { event: 'REQUEST_CHANGES', body: 'no', commitId: head });
    const detail = await prDetail(svc, (await svc.getPullRequest(pr.number))!);
    assert.deepEqual(
      detail.reviews.map((v) => [v.author, v.association, v.writeAccess]),
      [
        ['mallory', 'NONE', false],
        ['mallory', 'NONE', false],
      ],
    );
    assert.deepEqual(
      [detail.readiness.ready, detail.readiness.blocking, detail.readiness.reasons],
      [false, [], [`no approval for the head ${head.slice(0, 7)}`]],
    );
    assert.match(
      detail.readiness.notes.join('\n'),
      /^change request #\d+ by mallory not counted: mallory cannot push to the repository \(author_association NONE\)$/,
    );
    const asked = fake.requests.filter((q) => q.path.endsWith('/collaborators/mallory/permission')).length;
    assert.equal(asked, 1, 'the permission endpoint is asked once per author and read');
    await as('token-carol').createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    const carol = await ready(svc, pr.number);
    assert.deepEqual([carol.ready, carol.approvals.map((v) => v.by)], [true, ['carol']]);
  });

  it("an edited marker comment no longer counts; draft and GitHub's mergeable_state stand in the way with a reason", async () => {
    const head = r.push('edited');
    const pr = await svc.createPullRequest({ branch: 'edited', title: 'E' });
    const marker = await svc.createComment(pr.number, verdictMarker('APPROVED', head));
    assert.equal((await ready(svc, pr.number)).ready, true);
    fake.editComment(marker.id, verdictMarker('APPROVED', head) + '\n(edited by someone with write access)');
    const edited = await ready(svc, pr.number);
    assert.equal(edited.ready, false);
    assert.match(
      edited.notes[0],
      new RegExp(`^marker comment #${marker.id} ignored: edited at \\S+ after it was written at \\S+$`),
    );
    await svc.createComment(pr.number, verdictMarker('APPROVED', head));
    assert.equal((await ready(svc, pr.number)).ready, true);
    fake.setMergeable(pr.number, false, 'dirty');
    assert.deepEqual((await ready(svc, pr.number)).reasons, [
      "the head conflicts with the base 'main' (mergeable_state dirty); merge the base into the branch or rebase it",
    ]);
    fake.setMergeable(pr.number, true, 'blocked');
    const byBranch = (await prDetail(svc, (await svc.getPullRequest({ branch: 'edited' }))!)).readiness;
    assert.deepEqual(byBranch.reasons, [
      'branch protection blocks the merge (mergeable_state blocked): a required review, check or signature is missing',
    ]);
    fake.setMergeable(pr.number, true, 'clean');
    fake.setDraft(pr.number, true);
    assert.deepEqual((await ready(svc, pr.number)).reasons, ['PR is a draft']);
  });

  it('statuses from the combined status carry no creator: none is shown, not a user called ghost', async () => {
    const head = r.push('statuses');
    await svc.setStatus(head, { context: 'ci/build', state: 'success' });
    assert.deepEqual(
      (await svc.listStatuses(head)).map((s) => [s.context, s.creator]),
      [['ci/build', null]],
    );
  });

  it('merges with a method the repository allows (squash when merge commits are off), or the configured one', async () => {
    const head = r.push('squashy');
    const pr = await svc.createPullRequest({ branch: 'squashy', title: 'Squash me' });
    await bob.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    fake.allowMerges({ merge: false, squash: true, rebase: true });
    try {
      const refused = new GithubHost({
        project: 'web',
        owner: 'acme',
        repo: 'web',
        token: 'token-svc',
        baseUrl: fake.url,
        defaultBase: 'main',
        mergeMethod: 'merge',
      });
      await refused.mergePullRequest(pr.number, { sha: head }).then(
        () => assert.fail('expected a refusal'),
        (e) =>
          assert.deepEqual(
            [e.reason, e.message],
            [
              'notMergeable',
              `GitHub will not merge PR #${pr.number} (merge) (405 Merge commits are not allowed on this repository.)`,
            ],
          ),
      );
      const merged = await svc.mergePullRequest(pr.number, { sha: head });
      assert.equal(merged.method, 'squash');
      const parents = spawnSync('git', [`--git-dir=${r.gitDir}`, 'rev-list', '--parents', '-n', '1', merged.sha], {
        encoding: 'utf8',
      })
        .stdout.trim()
        .split(' ');
      assert.equal(parents.length, 2, 'a squash commit has one parent');
    } finally {
      fake.allowMerges({ merge: true, squash: true, rebase: true });
    }
  });

  it('retries 5xx, a 429 and a secondary rate limit; a rate limit that resets later is reported as such, not as forbidden', async () => {
    const host = as('token-svc');
    const before = fake.requests.length;
    fake.failNext(1, 502, 'Server Error');
    assert.ok(Array.isArray(await host.listPullRequests()));
    fake.failNext(1, 429, 'Too Many Requests', { 'retry-after': '1' });
    assert.ok(Array.isArray(await host.listPullRequests()));
    fake.failNext(1, 403, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', {
      'retry-after': '1',
    });
    assert.ok(Array.isArray(await host.listPullRequests()));
    assert.ok(fake.requests.length - before >= 6, 'each failure was followed by a retry');
    const reset = Math.floor(Date.now() / 1000) + 3600;
    fake.failNext(1, 403, 'API rate limit exceeded for user ID 1.', {
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(reset),
    });
    await host.listPullRequests().then(
      () => assert.fail('expected a refusal'),
      (e) => {
        assert.ok(e instanceof SvcError);
        assert.deepEqual(
          [e.reason, e.message],
          [
            'githubRateLimited',
            `GitHub's rate limit stopped svc when asked to list PRs (403 API rate limit exceeded for user ID 1.); try again after ${new Date(reset * 1000).toISOString()}`,
          ],
        );
      },
    );
  });
  it('a head whose webhook never came is caught up by the poll; unchanged polls are answered 304', async () => {
    const host = new GithubHost({
      project: 'web',
      owner: 'acme',
      repo: 'web',
      token: 'token-svc',
      baseUrl: fake.url,
      defaultBase: 'main',
    });
    const seen: { number: number; before: string | null; after: string; source: string }[] = [];
    host.onHeadChange((c) => seen.push({ number: c.number, before: c.before, after: c.after, source: c.source }));
    const first = r.push('polled');
    const pr = await svc.createPullRequest({ branch: 'polled', title: 'P' });
    await host.poll();
    assert.deepEqual(
      seen.filter((c) => c.number === pr.number),
      [{ number: pr.number, before: null, after: first, source: 'poll' }],
    );
    const lists = () => fake.requests.filter((q) => q.method === 'GET' && q.path === '/repos/acme/web/pulls');
    const before = lists().length;
    await host.poll();
    await host.poll();
    assert.deepEqual(
      lists()
        .slice(before)
        .map((q) => q.status),
      [304, 304],
      'nothing changed: conditional reads only',
    );
    const second = r.push('polled'); // a push GitHub would announce by a webhook that is lost
    await host.poll();
    assert.deepEqual(seen.filter((c) => c.number === pr.number).at(-1), {
      number: pr.number,
      before: first,
      after: second,
      source: 'poll',
    });
    assert.equal(lists().at(-1)!.status, 200);
    await host.poll();
    assert.equal(seen.filter((c) => c.number === pr.number).length, 2, 'each head is reported once');
    await host.close();
  });
  it('an App installation token (GET /user is 403) is refused with what to configure; with codehost.github.login its markers count', async () => {
    fake.addUser('token-app', 'web-bot[bot]', { association: 'NONE', integration: true });
    const base = {
      project: 'web',
      owner: 'acme',
      repo: 'web',
      token: 'token-app',
      baseUrl: fake.url,
      defaultBase: 'main',
    };
    const head = r.push('app');
    const unnamed = new GithubHost(base);
    const pr = await unnamed.createPullRequest({ branch: 'app', title: 'A' });
    await unnamed.createComment(pr.number, verdictMarker('APPROVED', head));
    await prDetail(unnamed, pr).then(
      () => assert.fail('readiness needs to know who the service is'),
      (e: unknown) => {
        assert.ok(SvcError.is(e, 'githubIdentityUnknown'), String(e));
        assert.equal(
          e.message,
          'GitHub will not tell this token who it is (403 on GET /user: Resource not accessible by integration - https://docs.github.com/rest), as with a GitHub App installation or Actions token; set codehost.github.login in config.yaml to the login it writes as, such as my-app[bot] or github-actions[bot]',
        );
      },
    );
    const named = createHost(
      'web',
      Project.parse({ path: r.root, code_host: 'github', github: { owner: 'acme', repo: 'web', api_url: fake.url } }),
      ConfigFile.parse({ codehost: { github: { login: 'web-bot[bot]' } } }),
      {
        db: openDb(':memory:', [storeMigrations, codeHostMigrations]),
        now: () => Date.now(),
        env: { GITHUB_TOKEN: 'token-app' },
      },
    );
    assert.equal(await named.whoami(), 'web-bot[bot]');
    assert.equal((await ready(named, pr.number)).ready, true, 'the App’s own marker at the head counts');
    assert.equal(ConfigFile.safeParse({ codehost: { github: { login: 'not a login' } } }).success, false);
  });
});
