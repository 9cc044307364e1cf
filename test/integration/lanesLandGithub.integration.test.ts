// `svc lane land` on a GitHub project (the fake, over the bare repository it serves):
// the landing goes through the builder's PR, opened when there is none, and GitHub's
// merge with the project's land.method; a PR that is not ready is refused with GitHub's
// reasons before the checks run, and the base is unchanged; a daemon killed after GitHub
// merged, before the row said so, is found landed at restart without a second merge.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Landing } from '../../shared/protocol/land';
import { startGithubFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';
import { buildAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import Database from 'better-sqlite3';
import { alive, daemonPids } from '../helpers/daemonProcs';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('lanes: svc lane land on GitHub (fake)', function () {
  this.timeout(240_000);
  let s: Scratch;
  let w: LaneWorld;
  let fake: GithubFake;

  before(async () => {
    s = makeScratch('land-github');
    s.env.GITHUB_TOKEN = '';
    w = await laneWorld(s);
    fake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir: w.origin });
    fake.addUser('token-svc', 'svc');
    fake.addUser('token-bob', 'bob');
    fs.appendFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      `    code_host: github\n    github: {owner: acme, repo: web, api_url: '${fake.url}'}\n` +
        `    gauntlet:\n      land: {method: squash}\n      checks:\n        - {name: test, run: 'echo green', timeout: 60}\n`,
    );
    fs.appendFileSync(path.join(s.svcHome, 'config.yaml'), `codehost:\n  github:\n    token: token-svc\n`);
  });
  after(async () => {
    await s?.dispose();
    await fake?.close();
  });

  const originMain = () => git(w.repo, s.env, '--git-dir', w.origin, 'rev-parse', 'refs/heads/main');
  const originFile = (file: string) => git(w.repo, s.env, '--git-dir', w.origin, 'show', `main:${file}`);
  const short = (sha: string) => sha.slice(0, 7);
  const approve = async (pr: number, sha: string) => {
    const res = await fetch(`${fake.url}/repos/acme/web/pulls/${pr}/reviews`, {
      method: 'POST',
      headers: { authorization: 'token token-bob', 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'APPROVE', commit_id: sha }),
    });
    assert.equal(res.status, 200);
  };
  const pull = async (n: number) =>
    (await (
      await fetch(`${fake.url}/repos/acme/web/pulls/${n}`, { headers: { authorization: 'token token-bob' } })
    ).json()) as { state: string; merged_at: string | null; head: { ref: string; sha: string }; base: { ref: string } };

  async function builder(key: string, file: string, content: string) {
    const brief = writeBrief(w.briefs, `${key}.md`, [{ run: buildAndReport(file, content), check: true }]);
    const lane = await startLane(w, { run: 'r1', key, role: 'builder', model: 'm', brief });
    assert.equal((await s.svc(['lane', 'wait', lane.name, '--timeout', '60'])).code, 0);
    const branch = git(lane.cwd, s.env, 'rev-parse', '--abbrev-ref', 'HEAD');
    const head = git(w.repo, s.env, '--git-dir', w.origin, 'rev-parse', `refs/heads/${branch}`);
    return { ...lane, branch, head };
  }

  it('opens the PR and refuses it unapproved; once approved, GitHub merges it by land.method and the row is landed', async () => {
    const lane = await builder('ready', 'ready.txt', 'through the PR');
    const before = originMain();
    const first = await s.svc(['lane', 'land', lane.name, '--wait']);
    assert.deepEqual(
      [first.code, first.stderr],
      [
        1,
        `cannot land lane ${lane.name}: PR proj#1 is not ready to merge: no approval for the head ${short(lane.head)}; the base is unchanged\n`,
      ],
    );
    assert.equal(originMain(), before);
    const opened = await pull(1);
    assert.deepEqual(
      [opened.state, opened.head.ref, opened.head.sha, opened.base.ref],
      ['open', lane.branch, lane.head, 'main'],
    );
    // Refused before the checks: none ran.
    assert.equal(fs.existsSync(path.join(s.svcHome, 'land', '1', 'test.log')), false);

    await approve(1, lane.head);
    const r = await ok(s.svc(['lane', 'land', lane.name, '--wait', '--json']));
    const landing = JSON.parse(r.stdout) as Landing;
    assert.deepEqual(
      [landing.state, landing.pr, landing.baseSha, landing.landedSha, landing.method],
      ['landed', 1, before, originMain(), 'squash'],
    );
    assert.deepEqual(
      landing.checks.map((c) => [c.name, c.ok]),
      [['test', true]],
    );
    // GitHub's squash: one commit on the old base, with the PR's title, holding the builder's tree.
    const squash = git(w.repo, s.env, '--git-dir', w.origin, 'log', '-1', '--format=%P %s', 'main');
    assert.equal(squash, `${before} Land r1/ready (${lane.name}) (#1)`);
    assert.equal(originFile('ready.txt'), 'through the PR');
    const merged = await pull(1);
    assert.equal(merged.state, 'closed');
    assert.ok(merged.merged_at);
    const put = fake.requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/pulls/1/merge'));
    assert.deepEqual(
      put.map((q) => [q.login, q.status]),
      [['svc', 200]],
    );
  });

  it('refuses an approved PR whose GitHub check fails, with the reasons, the base unchanged and nothing merged', async () => {
    const lane = await builder('notready', 'notready.txt', 'blocked by CI');
    const first = await s.svc(['lane', 'land', lane.name, '--wait']);
    assert.equal(first.code, 1);
    await approve(2, lane.head);
    fake.addCheckRun(lane.head, { name: 'ci', status: 'completed', conclusion: 'failure' });
    fake.setMergeable(2, true, 'blocked');
    const before = originMain();
    const r = await s.svc(['lane', 'land', lane.name, '--wait']);
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [
        1,
        '',
        `cannot land lane ${lane.name}: PR proj#2 is not ready to merge: branch protection blocks the merge (mergeable_state blocked): a required review, check or signature is missing; check 'ci' is failure; the base is unchanged\n`,
      ],
    );
    assert.equal(originMain(), before);
    assert.equal((await pull(2)).state, 'open');
    assert.equal(fake.requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/pulls/2/merge')).length, 0);
  });

  it('a daemon killed after GitHub merged the PR, before the row says so: the restart records it landed, merging once', async () => {
    const marker = path.join(s.root, 'paused-after-github-merge');
    s.env.SVC_TEST_PAUSE_AFTER_LAND_PUSH = marker;
    await ok(s.svc(['daemon', 'stop', '--force']));
    const lane = await builder('killed', 'killed.txt', 'merged before the kill');
    assert.equal((await s.svc(['lane', 'land', lane.name, '--wait'])).code, 1);
    await approve(3, lane.head);
    const queued = await ok(s.svc(['lane', 'land', lane.name]));
    const id = Number(/^Landing #(\d+) /.exec(queued.stdout)?.[1]);
    const pid = Number(
      (await eventually(() => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : undefined), 60_000)).trim(),
    );
    assert.deepEqual(daemonPids(s.svcHome), [pid]);
    const merged = await pull(3);
    assert.equal(merged.state, 'closed');
    const mergeSha = originMain();
    const row = () => {
      const db = new Database(path.join(s.svcHome, 'svc.db'), { readonly: true });
      try {
        return db.prepare(`SELECT state, pr, landed_sha AS sha FROM landings WHERE id = ?`).get(id) as {
          state: string;
          pr: number;
          sha: string | null;
        };
      } finally {
        db.close();
      }
    };
    assert.deepEqual(row(), { state: 'running', pr: 3, sha: null });
    process.kill(pid, 'SIGKILL');
    await eventually(() => !alive(pid), 10_000, 'the daemon to die');

    await ok(s.svc(['lane', 'runs']));
    const landed = await eventually(() => (row().state === 'landed' ? row() : undefined), 60_000, 'landed');
    assert.deepEqual(landed, { state: 'landed', pr: 3, sha: mergeSha });
    assert.equal(originMain(), mergeSha);
    assert.equal(originFile('killed.txt'), 'merged before the kill');
    const puts = fake.requests.filter((q) => q.method === 'PUT' && q.path.endsWith('/pulls/3/merge'));
    assert.equal(puts.length, 1, 'merged once');
  });
});
