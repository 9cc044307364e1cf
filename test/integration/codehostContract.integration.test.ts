// One contract, two code hosts: `local` over a real bare repository, and `github`
// through Octokit against the local GitHub fake (also over a real bare repository).
// Both run in-process; the daemon-level tests are pr*.integration.test.ts.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import type { CodeHost, HeadChange } from '../../server/codehost/codeHost';
import { GithubHost } from '../../server/codehost/github/githubHost';
import { handleGithubWebhook } from '../../server/codehost/github/webhook';
import { LocalHost } from '../../server/codehost/local/localHost';
import { verdictMarker } from '../../server/codehost/marker';
import { findPr, mergeIfReady, prDetail } from '../../server/codehost/prState';
import { PERSON } from '../../server/authority/caller';
import type { HttpRequest } from '../../server/http/httpServer';
import { codeHostMigrations } from '../../server/codehost/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { SvcError } from '../../shared/errors';
import { makeRemote } from '../helpers/codehostFixtures';
import type { RemoteFixture } from '../helpers/codehostFixtures';
import { startGithubFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';

interface Subject {
  remote: RemoteFixture;
  /** The service identity, which also opens the PRs (one shared account). */
  author: CodeHost;
  /** A second identity, `bob`. */
  reviewer: CodeHost;
  headSource: HeadChange['source'];
  /** Makes the host learn of a push (local: it watches; github: a signed webhook delivery). */
  announce(number: number, branch: string, before: string, after: string): Promise<void>;
  close(): Promise<void>;
}

async function rejects(
  p: Promise<unknown>,
  kind: string,
  reason: string | RegExp,
  message?: RegExp,
): Promise<SvcError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof SvcError, `expected an SvcError, got ${(e as Error)?.stack}`);
    assert.equal(e.kind, kind, e.message);
    if (typeof reason === 'string') assert.equal(e.reason, reason, e.message);
    else assert.match(e.reason, reason);
    if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail('expected a refusal');
}

function nextChange(host: CodeHost, number: number, timeoutMs = 5000): Promise<HeadChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => (off(), reject(new Error(`no head change for #${number} within ${timeoutMs} ms`))),
      timeoutMs,
    );
    const off = host.onHeadChange((c) => {
      if (c.number !== number) return;
      clearTimeout(timer);
      off();
      resolve(c);
    });
  });
}

async function localSubject(): Promise<Subject> {
  const remote = makeRemote('codehost-local');
  const db = openDb(path.join(remote.root, 'svc.db'), [storeMigrations, codeHostMigrations]);
  const base = {
    db,
    project: 'web',
    gitDir: remote.gitDir,
    defaultBase: 'main',
    user: 'svc',
    now: () => Date.now(),
    watch: { debounceMs: 50, rescanMs: 0 },
  };
  const author = new LocalHost({ ...base, reviewer: 'svc' });
  const reviewer = new LocalHost({ ...base, reviewer: 'bob' });
  return {
    remote,
    author,
    reviewer,
    headSource: 'push',
    announce: async () => undefined,
    async close() {
      await author.close();
      await reviewer.close();
      db.close();
      remote.dispose();
    },
  };
}

async function githubSubject(): Promise<Subject> {
  const remote = makeRemote('codehost-github');
  // Two items per page: every list must follow Link rel="next" to be complete.
  const fake: GithubFake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir: remote.gitDir, maxPerPage: 2 });
  fake.addUser('token-svc', 'svc');
  fake.addUser('token-bob', 'bob');
  const base = {
    project: 'web',
    owner: 'acme',
    repo: 'web',
    token: 'token-svc',
    baseUrl: fake.url,
    defaultBase: 'main',
  };
  const author = new GithubHost(base);
  const reviewer = new GithubHost({ ...base, reviewerToken: 'token-bob' });
  const db: Db = openDb(path.join(remote.root, 'svc.db'), [storeMigrations, codeHostMigrations]);
  const secret = 'webhook-secret';
  return {
    remote,
    author,
    reviewer,
    headSource: 'webhook',
    async announce(number, branch, before, after) {
      const body = Buffer.from(
        JSON.stringify({
          action: 'synchronize',
          number,
          before,
          after,
          pull_request: { number, head: { ref: branch, sha: after } },
          repository: { full_name: 'acme/web' },
        }),
      );
      const signature = 'sha256=' + crypto.createHmac('sha256', secret).update(body).digest('hex');
      const req = {
        method: 'POST',
        path: '/api/webhooks/github',
        params: {},
        caller: PERSON,
        query: new URLSearchParams(),
        headers: {
          'x-hub-signature-256': signature,
          'x-github-delivery': crypto.randomUUID(),
          'x-github-event': 'pull_request',
        },
        rawBody: body,
        json: () => JSON.parse(body.toString()),
      } as HttpRequest;
      const out = await handleGithubWebhook(
        {
          db,
          secret: () => secret,
          hostForRepo: (n) => (n === 'acme/web' ? author : undefined),
          now: () => Date.now(),
        },
        req,
      );
      assert.deepEqual([out.status, (out.body as { outcome: string }).outcome], [200, 'headChange']);
    },
    async close() {
      db.close();
      await fake.close();
      remote.dispose();
    },
  };
}

for (const [name, make] of [
  ['local', localSubject],
  ['github (fake)', githubSubject],
] as const) {
  describe(`code host contract: ${name}`, function () {
    this.timeout(30_000);
    let s: Subject;
    let branchNo = 0;
    const branch = () => `issue/web-${++branchNo}`;
    before(async () => (s = await make()));
    after(async () => s?.close());

    async function openPr(title = 'Add a feature') {
      const b = branch();
      const head = s.remote.push(b);
      const pr = await s.author.createPullRequest({ branch: b, title, body: 'why' });
      return { pr, head, branch: b };
    }

    it('whoami is the identity the service writes as', async () => {
      assert.equal(await s.author.whoami(), 'svc');
      assert.equal(await s.reviewer.whoami(), 'bob');
    });

    it('opens a PR for a pushed branch and finds it by number, by branch and in the list', async () => {
      const { pr, head, branch: b } = await openPr('First');
      assert.deepEqual(
        {
          number: pr.number,
          title: pr.title,
          body: pr.body,
          branch: pr.branch,
          base: pr.base,
          author: pr.author,
          state: pr.state,
          draft: pr.draft,
          head: pr.head,
          project: pr.project,
        },
        {
          number: pr.number,
          title: 'First',
          body: 'why',
          branch: b,
          base: 'main',
          author: 'svc',
          state: 'open',
          draft: false,
          head,
          project: 'web',
        },
      );
      assert.deepEqual(await s.author.getPullRequest(pr.number), pr);
      assert.deepEqual(await s.author.getPullRequest({ branch: b }), pr);
      assert.ok((await s.author.listPullRequests()).some((p) => p.number === pr.number && p.head === head));
      assert.equal(await s.author.headSha(b), head);
      assert.equal(await s.author.headSha('no-such-branch'), null);
      assert.equal(await s.author.getPullRequest(9999), undefined);
      assert.deepEqual(await findPr(s.author, `#${pr.number}`), pr);
      await rejects(
        findPr(s.author, 'no-such-branch'),
        'notFound',
        'unknownPr',
        /^no PR for branch 'no-such-branch' in project web$/,
      );
    });

    it('refuses a PR for a branch not on the remote, and a second open PR for a branch', async () => {
      await rejects(
        s.author.createPullRequest({ branch: 'never-pushed', title: 'x' }),
        'usage',
        /^(branchNotPushed|githubUnprocessable)$/,
      );
      const { branch: b } = await openPr();
      await rejects(s.author.createPullRequest({ branch: b, title: 'again' }), 'conflict', 'prExists');
    });

    it("refuses APPROVE and REQUEST_CHANGES on the author's own PR (selfReviewRefused); COMMENT is allowed", async () => {
      const { pr, head } = await openPr();
      const approve = await rejects(
        s.author.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head }),
        'refused',
        'selfReviewRefused',
        /Can not approve your own pull request/,
      );
      assert.ok(SvcError.is(approve, 'selfReviewRefused'));
      await rejects(
        s.author.createReview(pr.number, { event: 'REQUEST_CHANGES', body: 'fix it', commitId: head }),
        'refused',
        'selfReviewRefused',
        /request changes on your own pull request/,
      );
      const comment = await s.author.createReview(pr.number, { event: 'COMMENT', body: 'a note', commitId: head });
      assert.deepEqual(
        [comment.author, comment.state, comment.commitId, comment.body],
        ['svc', 'COMMENTED', head, 'a note'],
      );
      assert.deepEqual(
        (await s.author.listReviews(pr.number)).map((r) => r.state),
        ['COMMENTED'],
      );
    });

    it('a separate identity posts formal reviews pinned to the commit read; bad input posts nothing', async () => {
      const { pr, head } = await openPr();
      await rejects(
        s.reviewer.createReview(pr.number, { event: 'REQUEST_CHANGES', body: ' ', commitId: head }),
        'usage',
        'reviewBodyRequired',
      );
      await rejects(
        s.reviewer.createReview(pr.number, { event: 'APPROVE', body: '', commitId: 'HEAD' }),
        'usage',
        'badSha',
      );
      await rejects(
        s.reviewer.createReview(pr.number, { event: 'COMMENT', body: 'x'.repeat(65_537), commitId: head }),
        'usage',
        'bodyTooLong',
      );
      await rejects(s.reviewer.createComment(pr.number, 'x'.repeat(65_537)), 'usage', 'bodyTooLong');
      assert.deepEqual(await s.reviewer.listReviews(pr.number), []);
      assert.deepEqual(await s.reviewer.listComments(pr.number), []);
      const r = await s.reviewer.createReview(pr.number, { event: 'APPROVE', body: 'looks right', commitId: head });
      assert.deepEqual([r.author, r.state, r.commitId], ['bob', 'APPROVED', head]);
      const listed = await s.author.listReviews(pr.number);
      assert.deepEqual(
        listed.map((x) => [x.id, x.author, x.state, x.commitId, x.body]),
        [[r.id, 'bob', 'APPROVED', head, 'looks right']],
      );
      const d = await prDetail(s.author, (await s.author.getPullRequest(pr.number))!);
      assert.deepEqual(
        [d.readiness.ready, d.readiness.reasons, d.identity, d.codeHost],
        [true, [], 'svc', s.author.kind],
      );
    });

    it("the service's own marker comment at the head makes the PR ready; a push leaves it stale", async () => {
      const { pr, head, branch: b } = await openPr();
      const c = await s.author.createComment(
        pr.number,
        `${verdictMarker('APPROVED', head)}\n\n## Summary\nAll four lanes approve.`,
      );
      assert.equal(c.author, 'svc');
      const ready = await prDetail(s.author, (await s.author.getPullRequest(pr.number))!);
      assert.deepEqual(
        [ready.readiness.ready, ready.readiness.approvals.map((v) => [v.via, v.sha])],
        [true, [['marker', head]]],
      );

      const changed = nextChange(s.author, pr.number);
      const next = s.remote.push(b);
      await s.announce(pr.number, b, head, next);
      assert.equal((await changed).after, next);
      const stale = await prDetail(s.author, (await s.author.getPullRequest(pr.number))!);
      assert.equal(stale.pr.head, next);
      assert.deepEqual([stale.readiness.ready, stale.readiness.stale], [false, true]);
      assert.deepEqual(stale.readiness.reasons, [
        `no approval for the head ${next.slice(0, 7)}`,
        `approval by svc (marker comment) is for ${head.slice(0, 7)}, not the head ${next.slice(0, 7)}`,
      ]);
    });

    it('reports a head change with before and after', async () => {
      const { pr, head, branch: b } = await openPr();
      const changed = nextChange(s.author, pr.number);
      const next = s.remote.push(b);
      await s.announce(pr.number, b, head, next);
      const c = await changed;
      assert.deepEqual(c, {
        project: 'web',
        number: pr.number,
        branch: b,
        before: head,
        after: next,
        source: s.headSource,
        ...(s.headSource === 'webhook' ? { action: 'synchronize' } : {}),
      });
    });

    it('statuses: none is an empty list (not pending); the latest per context counts', async () => {
      const { pr, head } = await openPr();
      assert.deepEqual(await s.reviewer.listStatuses(head), []);
      assert.deepEqual(await s.reviewer.listChecks(head), []);
      await s.reviewer.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
      await s.reviewer.setStatus(head, { context: 'ci', state: 'pending', description: 'running' });
      await s.reviewer.setStatus(head, { context: 'ci', state: 'success', description: 'passed' });
      await s.reviewer.setStatus(head, { context: 'lint', state: 'failure' });
      const e2e = await s.reviewer.setStatus(head, {
        context: 'e2e',
        state: 'success',
        targetUrl: 'http://ci.invalid/1',
      });
      assert.deepEqual(
        [e2e.context, e2e.state, e2e.targetUrl, e2e.creator],
        ['e2e', 'success', 'http://ci.invalid/1', 'bob'],
      );
      const statuses = await s.author.listStatuses(head);
      assert.deepEqual(
        statuses.map((x) => [x.context, x.state, x.description]),
        [
          ['ci', 'success', 'passed'],
          ['e2e', 'success', null],
          ['lint', 'failure', null],
        ],
      );
      const failing = await prDetail(s.author, (await s.author.getPullRequest(pr.number))!);
      assert.deepEqual([failing.readiness.checks, failing.readiness.reasons], ['failing', ["check 'lint' is failure"]]);
      await s.reviewer.setStatus(head, { context: 'lint', state: 'success' });
      const green = await prDetail(s.author, (await s.author.getPullRequest(pr.number))!);
      assert.deepEqual([green.readiness.ready, green.readiness.checks], [true, 'green']);
      await rejects(
        s.reviewer.setStatus(head, { context: 'ci', state: 'bogus' as 'success' }),
        'usage',
        'badStatusState',
      );
    });

    it('lists are complete and chronological across pages', async () => {
      const { pr, head } = await openPr();
      for (let i = 1; i <= 5; i++) await s.author.createComment(pr.number, `comment ${i}`);
      for (let i = 1; i <= 3; i++)
        await s.reviewer.createReview(pr.number, { event: 'COMMENT', body: `review ${i}`, commitId: head });
      assert.deepEqual(
        (await s.author.listComments(pr.number)).map((c) => c.body),
        ['comment 1', 'comment 2', 'comment 3', 'comment 4', 'comment 5'],
      );
      assert.deepEqual(
        (await s.author.listReviews(pr.number)).map((r) => r.body),
        ['review 1', 'review 2', 'review 3'],
      );
    });

    it('refuses to merge a PR that is not ready, with the reasons, and merges nothing', async () => {
      const { pr, head } = await openPr();
      const main = s.remote.git('ls-remote', 'origin', 'refs/heads/main');
      await rejects(
        mergeIfReady(s.author, String(pr.number)),
        'refused',
        'notReady',
        new RegExp(`^PR web#${pr.number} is not ready to merge:\\n  - no approval for the head ${head.slice(0, 7)}$`),
      );
      assert.equal(s.remote.git('ls-remote', 'origin', 'refs/heads/main'), main);
      assert.equal((await s.author.getPullRequest(pr.number))!.state, 'open');
    });

    it('merges exactly the approved head into the base; a head that moved is refused', async () => {
      const { pr, head, branch: b } = await openPr();
      s.remote.push(`side-${branchNo}`, { from: 'main' }); // the base may move on; only the approved head matters
      await s.reviewer.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
      await rejects(s.author.mergePullRequest(pr.number, { sha: 'f'.repeat(40) }), 'conflict', 'headMoved');
      const out = await mergeIfReady(s.author, b);
      assert.ok(['fast-forward', 'merge'].includes(out.method));
      assert.equal(s.remote.git('ls-remote', 'origin', 'refs/heads/main').split('\t')[0], out.sha);
      s.remote.git('fetch', '--quiet', 'origin');
      s.remote.git('merge-base', '--is-ancestor', head, 'origin/main'); // throws unless the head is in main
      assert.deepEqual([out.pr.state, out.pr.head, out.pr.mergeSha], ['merged', head, out.sha]);
      assert.ok((await s.author.listPullRequests({ state: 'merged' })).some((p) => p.number === pr.number));
      assert.ok(!(await s.author.listPullRequests()).some((p) => p.number === pr.number));
      await rejects(mergeIfReady(s.author, String(pr.number)), 'refused', 'notReady', /  - PR is merged/);
    });
  });
}
