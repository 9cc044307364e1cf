// What svc trusts on GitHub, against the fake (whose answers githubFakeShapes checks
// against GitHub's OpenAPI description): only people who can push make a PR ready, as
// branch protection counts them; of the service's own verdicts only the newest its journal
// recorded for the head counts; a base change is a new review target; a signed body is
// handled once whatever its delivery id; a PR whose fork was deleted is no head of svc's.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import type { HeadChange } from '../../server/codehost/codeHost';
import { GithubHost } from '../../server/codehost/github/githubHost';
import { storedPrBases } from '../../server/codehost/github/prBases';
import { handleGithubWebhook } from '../../server/codehost/github/webhook';
import { verdictMarker } from '../../server/codehost/marker';
import { prDetail } from '../../server/codehost/prState';
import type { HttpRequest } from '../../server/http/httpServer';
import { PERSON } from '../../server/authority/caller';
import { serviceVerdicts } from '../../server/review/runs';
import { codeHostMigrations } from '../../server/codehost/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import type { JournalEntry } from '../../shared/protocol/review';
import { makeRemote } from '../helpers/codehostFixtures';
import type { RemoteFixture } from '../helpers/codehostFixtures';
import { acmeFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';
import { sleep } from '../helpers/scratch';

const SECRET = 'trust-secret';

describe('GitHub trust (fake)', function () {
  this.timeout(60_000);
  let r: RemoteFixture;
  let fake: GithubFake;
  let db: Db;
  let base: Awaited<ReturnType<typeof acmeFake>>['base'];
  let svc: GithubHost;
  let bob: GithubHost;
  const as = (token: string) => new GithubHost({ ...base, reviewerToken: token });
  const detail = async (host: GithubHost, n: number, journal?: JournalEntry[]) =>
    prDetail(host, (await host.getPullRequest(n))!, journal && serviceVerdicts(journal, n));
  const deliver = (host: GithubHost, event: string, payload: object, delivery: string = crypto.randomUUID()) => {
    const body = Buffer.from(JSON.stringify({ ...payload, repository: { full_name: 'acme/web' } }));
    const signature = 'sha256=' + crypto.createHmac('sha256', SECRET).update(body).digest('hex');
    const req = {
      method: 'POST',
      path: '/api/webhooks/github',
      params: {},
      caller: PERSON,
      query: new URLSearchParams(),
      headers: { 'x-hub-signature-256': signature, 'x-github-delivery': delivery, 'x-github-event': event },
      rawBody: body,
      json: () => JSON.parse(body.toString()),
    } as HttpRequest;
    return handleGithubWebhook(
      { db, secret: () => SECRET, hostForRepo: (n) => (n === 'acme/web' ? host : undefined), now: () => Date.now() },
      req,
    );
  };
  const events = (host: GithubHost) => {
    const seen: HeadChange[] = [];
    host.onHeadChange((c) => seen.push(c));
    return seen;
  };

  before(async () => {
    r = makeRemote('gh-trust');
    const made = await acmeFake(r.gitDir);
    fake = made.fake;
    base = made.base;
    // GitHub reports COLLABORATOR or MEMBER for read and triage roles too.
    fake.addUser('token-carol', 'carol', { association: 'COLLABORATOR', permission: 'read' });
    fake.addUser('token-dave', 'dave', { association: 'MEMBER', permission: 'triage' });
    fake.addUser('token-erin', 'erin', { association: 'COLLABORATOR', permission: 'maintain' });
    db = openDb(path.join(r.root, 'svc.db'), [storeMigrations, codeHostMigrations]);
    svc = new GithubHost({ ...base, bases: storedPrBases(db, 'web') });
    bob = as('token-bob');
  });
  after(async () => {
    db.close();
    await fake.close();
    r.dispose();
  });

  it('approvals and change requests count only from people who can push: read and triage collaborators do not, maintainers do', async () => {
    const head = r.push('perm');
    const pr = await svc.createPullRequest({ branch: 'perm', title: 'P' });
    await as('token-carol').createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    await as('token-dave').createReview(pr.number, { event: 'REQUEST_CHANGES', body: 'no', commitId: head });
    const d = await detail(svc, pr.number);
    assert.equal(d.readiness.ready, false);
    assert.deepEqual(d.readiness.reasons, [`no approval for the head ${head.slice(0, 7)}`]);
    assert.deepEqual(
      d.readiness.notes.filter((n) => /cannot push/.test(n)),
      [
        `approval #${d.reviews[0].id} by carol not counted: carol cannot push to the repository (author_association COLLABORATOR)`,
        `change request #${d.reviews[1].id} by dave not counted: dave cannot push to the repository (author_association MEMBER)`,
      ],
    );
    await as('token-erin').createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    assert.equal((await detail(svc, pr.number)).readiness.ready, true);
  });

  it('the permission of each verdict author is asked once per PR head', async () => {
    const asked = () => fake.requests.filter((q) => q.path === '/repos/acme/web/collaborators/carol/permission').length;
    const head = r.push('perm-cache');
    const pr = await svc.createPullRequest({ branch: 'perm-cache', title: 'C' });
    await as('token-carol').createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    const before = asked();
    await detail(svc, pr.number);
    await detail(svc, pr.number);
    assert.equal(asked(), before + 1, 'asked once at this head');
    r.push('perm-cache');
    await detail(svc, pr.number);
    assert.equal(asked(), before + 2, 'asked again at the new head');
  });

  it('a deleted newer marker does not bring back an older verdict: only the newest the journal recorded for the head counts', async () => {
    const head = r.push('marker');
    const pr = await svc.createPullRequest({ branch: 'marker', title: 'M' });
    const approved = await svc.createComment(pr.number, verdictMarker('APPROVED', head));
    await sleep(1100); // GitHub's times have whole seconds
    const changes = await svc.createComment(pr.number, verdictMarker('CHANGES_REQUESTED', head));
    const journal = [
      {
        at: '2026-01-01T00:00:00Z',
        kind: 'review.verdict',
        issue: 'WEB-1',
        runId: 'r1',
        sha: head,
        verdict: 'APPROVED',
        via: 'marker',
        id: approved.id,
        pr: pr.number,
        by: 'agent',
      },
      {
        at: '2026-01-01T00:01:00Z',
        kind: 'review.verdict',
        issue: 'WEB-1',
        runId: 'r2',
        sha: head,
        verdict: 'CHANGES_REQUESTED',
        via: 'marker',
        id: changes.id,
        pr: pr.number,
        by: 'agent',
      },
    ] as JournalEntry[];
    assert.equal((await detail(svc, pr.number, journal)).readiness.ready, false);
    fake.deleteComment(changes.id);
    const d = await detail(svc, pr.number, journal);
    assert.equal(d.readiness.ready, false, 'the older APPROVED marker came back');
    assert.deepEqual(d.readiness.notes, [
      `marker comment #${approved.id} by svc not counted: the service's journal records a newer verdict (marker #${changes.id}) for ${head.slice(0, 7)}`,
    ]);
    assert.deepEqual(d.readiness.reasons, [`no approval for the head ${head.slice(0, 7)}`]);
  });

  it("a dismissed change request does not bring back the same reviewer's earlier approval", async () => {
    const head = r.push('dismiss');
    const pr = await svc.createPullRequest({ branch: 'dismiss', title: 'D' });
    await bob.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    const cr = await bob.createReview(pr.number, { event: 'REQUEST_CHANGES', body: 'wait', commitId: head });
    fake.dismissReview(cr.id);
    const d = await detail(svc, pr.number);
    assert.deepEqual([d.readiness.ready, d.reviews.map((x) => x.state)], [false, ['APPROVED', 'DISMISSED']]);
  });

  it('a base change (webhook) is a new review target: earlier approvals stop counting until one after it', async () => {
    const seen = events(svc);
    r.push('release');
    const head = r.push('rebased');
    const pr = await svc.createPullRequest({ branch: 'rebased', title: 'B' });
    await bob.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head });
    assert.equal((await detail(svc, pr.number)).readiness.ready, true);
    await svc.poll(); // svc has seen the PR on main
    const { updated_at } = fake.editBase(pr.number, 'release');
    const payload = {
      action: 'edited',
      number: pr.number,
      changes: { base: { ref: { from: 'main' }, sha: { from: head } } },
      pull_request: { number: pr.number, updated_at, base: { ref: 'release' }, head: { ref: 'rebased', sha: head } },
    };
    const out = await deliver(svc, 'pull_request', payload);
    assert.deepEqual([out.status, (out.body as { outcome: string }).outcome], [200, 'baseChange']);
    assert.deepEqual(
      seen.filter((c) => c.number === pr.number && c.action === 'base_changed'),
      [
        {
          project: 'web',
          number: pr.number,
          branch: 'rebased',
          before: head,
          after: head,
          source: 'webhook',
          action: 'base_changed',
        },
      ],
    );
    const d = await detail(svc, pr.number);
    assert.equal(d.readiness.ready, false);
    assert.deepEqual(d.readiness.notes, [
      `approval by bob not counted: given before the base changed to 'release' at ${updated_at}`,
    ]);
    assert.equal(svc.baseChangedAt(pr.number), updated_at);
    // Kept in the store: a host made after a restart knows it too.
    assert.equal(new GithubHost({ ...base, bases: storedPrBases(db, 'web') }).baseChangedAt(pr.number), updated_at);
    await sleep(1100);
    await bob.createReview(pr.number, { event: 'APPROVE', body: 'again', commitId: head });
    assert.equal((await detail(svc, pr.number)).readiness.ready, true);
  });

  it('a base change the webhooks missed is found by the poll', async () => {
    const host = new GithubHost({ ...base, bases: storedPrBases(db, 'web-poll') });
    const head = r.push('rebased-poll');
    const pr = await host.createPullRequest({ branch: 'rebased-poll', title: 'BP' });
    await host.poll();
    const seen = events(host);
    fake.editBase(pr.number, 'release');
    await host.poll();
    assert.deepEqual(
      seen.filter((c) => c.number === pr.number),
      [
        {
          project: 'web',
          number: pr.number,
          branch: 'rebased-poll',
          before: head,
          after: head,
          source: 'poll',
          action: 'base_changed',
        },
      ],
    );
    assert.notEqual(host.baseChangedAt(pr.number), null);
  });

  it('the same signed body under a new delivery id is a replay: handled once', async () => {
    const seen = events(svc);
    const before = r.push('replay');
    const pr = await svc.createPullRequest({ branch: 'replay', title: 'R' });
    const after = r.push('replay');
    const payload = {
      action: 'synchronize',
      number: pr.number,
      before,
      after,
      pull_request: { number: pr.number, head: { ref: 'replay', sha: after } },
    };
    const first = await deliver(svc, 'pull_request', payload);
    assert.equal((first.body as { outcome: string }).outcome, 'headChange');
    const again = await deliver(svc, 'pull_request', payload);
    assert.deepEqual([again.status, (again.body as { duplicate?: boolean }).duplicate], [200, true]);
    assert.equal(seen.filter((c) => c.number === pr.number).length, 1);
  });

  it('the poll reports no head for a PR whose fork was deleted (head.repo null)', async () => {
    const host = new GithubHost(base);
    r.push('gone-fork');
    const pr = await svc.createPullRequest({ branch: 'gone-fork', title: 'G' });
    fake.deleteHeadRepo(pr.number);
    const seen = events(host);
    await host.poll();
    assert.deepEqual(
      seen.filter((c) => c.number === pr.number),
      [],
    );
    assert.ok(seen.length > 0, 'the poll reported the other open PRs');
  });
});
