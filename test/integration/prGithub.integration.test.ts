// A GitHub project through the real daemon: `svc pr` against the local GitHub fake, and
// POST /api/webhooks/github verified by signature and de-duplicated by delivery id.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listenHeadChanges } from '../helpers/codehostFixtures';
import { startGithubFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';
import { git, makeRepo, makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const SECRET = 'webhook secret for tests';

describe('svc pr and the webhook on a GitHub project (fake)', function () {
  this.timeout(120_000);
  let s: Scratch;
  let fake: GithubFake;
  let dir: string;
  let origin: string;
  const svc = (args: string[]) => s.svc([...args, '--project', 'gh']);
  const commit = (file: string) => {
    fs.writeFileSync(path.join(dir, file), `${file}\n`);
    git(dir, s.env, 'add', '.');
    git(dir, s.env, 'commit', '--quiet', '-m', `add ${file}`);
    git(dir, s.env, 'push', '--quiet', 'origin', 'HEAD:refs/heads/feature');
    return git(dir, s.env, 'rev-parse', 'HEAD');
  };
  async function deliver(body: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as { httpPort: number };
    const res = await fetch(`http://127.0.0.1:${d.httpPort}/api/webhooks/github`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
    return { status: res.status, body: await res.json() };
  }
  const sign = (body: string, secret = SECRET) =>
    'sha256=' + crypto.createHmac('sha256', secret).update(body).digest('hex');

  before(async () => {
    s = makeScratch('pr-github');
    s.env.GITHUB_TOKEN = '';
    s.env.GITHUB_WEBHOOK_SECRET = '';
    ({ dir, origin } = makeRepo(s));
    fake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir: origin, maxPerPage: 2 });
    fake.addUser('token-svc', 'svc');
    fake.addUser('token-bob', 'bob');
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      `projects:\n  gh:\n    path: ${dir}\n    code_host: github\n    github: {owner: acme, repo: web, api_url: '${fake.url}'}\n`,
    );
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      `codehost:\n  github:\n    token: token-svc\n    webhook_secret: ${SECRET}\n`,
    );
    git(dir, s.env, 'checkout', '--quiet', '-b', 'feature');
  });
  after(async () => {
    await s?.dispose();
    await fake?.close();
  });

  it('opens a PR, is refused its own approval, takes webhook head changes once, merges when a second identity approves', async () => {
    const first = commit('a.txt');
    const created = await svc(['pr', 'create', '--branch', 'feature', '--title', 'Add a']);
    assert.deepEqual(
      [created.code, created.stdout, created.stderr],
      [0, `Opened gh#1: feature → main at ${first.slice(0, 7)}\n`, ''],
    );
    const list = await svc(['pr', 'list']);
    assert.equal(list.stdout, `gh#1\topen\tfeature → main\t${first.slice(0, 7)}\tAdd a\n`);

    const own = await svc(['pr', 'review', '1', '--approve']);
    assert.deepEqual(
      [own.code, own.stderr],
      [1, 'the code host refused a review of PR #1 by its author svc: Review Can not approve your own pull request\n'],
    );
    assert.ok(!fake.requests.some((q) => q.method === 'POST' && q.path.endsWith('/reviews') && q.login !== 'svc'));

    const listener = await listenHeadChanges(s.svcHome);
    try {
      const second = commit('b.txt');
      const payload = JSON.stringify({
        action: 'synchronize',
        number: 1,
        before: first,
        after: second,
        pull_request: { number: 1, head: { ref: 'feature', sha: second } },
        repository: { full_name: 'acme/web' },
      });
      const headers = { 'x-github-event': 'pull_request', 'x-github-delivery': 'delivery-1' };

      const forged = await deliver(payload, { ...headers, 'x-hub-signature-256': sign(payload, 'not the secret') });
      assert.deepEqual(forged, {
        status: 401,
        body: { error: 'X-Hub-Signature-256 does not match the body', reason: 'badSignature' },
      });
      const unsigned = await deliver(payload, headers);
      assert.deepEqual(unsigned.status, 401);

      const ok = await deliver(payload, { ...headers, 'x-hub-signature-256': sign(payload) });
      assert.deepEqual(ok, {
        status: 200,
        body: { ok: true, delivery: 'delivery-1', event: 'pull_request', outcome: 'headChange' },
      });
      assert.deepEqual(await listener.next(), {
        project: 'gh',
        number: 1,
        branch: 'feature',
        before: first,
        after: second,
        source: 'webhook',
        action: 'synchronize',
      });

      const replay = await deliver(payload, { ...headers, 'x-hub-signature-256': sign(payload) });
      assert.deepEqual(replay, { status: 200, body: { duplicate: true, delivery: 'delivery-1' } });
      await sleep(500);
      assert.equal(listener.seen.length, 1, 'the forged, unsigned and replayed deliveries reported nothing');

      const log = fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8');
      assert.match(log, /WARN  \[webhook\] refused \(401 badSignature\): X-Hub-Signature-256 does not match the body/);
      assert.match(log, /WARN  \[webhook\] replayed delivery delivery-1 \(pull_request\) dropped/);

      const notReady = await svc(['pr', 'merge', '1']);
      assert.deepEqual(
        [notReady.code, notReady.stderr],
        [1, `PR gh#1 is not ready to merge:\n  - no approval for the head ${second.slice(0, 7)}\n`],
      );

      // A human reviewer approves on GitHub.
      const res = await fetch(`${fake.url}/repos/acme/web/pulls/1/reviews`, {
        method: 'POST',
        headers: { authorization: 'token token-bob', 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'APPROVE', commit_id: second }),
      });
      assert.equal(res.status, 200);
      const shown = JSON.parse((await svc(['pr', 'show', '1', '--json'])).stdout);
      assert.deepEqual(
        [shown.codeHost, shown.identity, shown.readiness.ready, shown.pr.url],
        ['github', 'svc', true, 'https://github.com/acme/web/pull/1'],
      );

      const merged = await svc(['pr', 'merge', 'feature']);
      assert.equal(merged.code, 0, merged.stderr);
      const mainNow = git(origin, s.env, 'rev-parse', 'refs/heads/main');
      assert.equal(merged.stdout, `Merged gh#1 into main (merge, ${mainNow.slice(0, 7)})\n`);
      git(origin, s.env, 'merge-base', '--is-ancestor', second, 'refs/heads/main');
    } finally {
      listener.close();
    }
  });
});
