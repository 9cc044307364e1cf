// The local code host beyond the shared contract: watching the bare repository's refs,
// merging inside it without touching any checkout, and finding it from the project.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HeadChange } from '../../server/codehost/codeHost';
import { createHost, localRemote } from '../../server/codehost/hostFactory';
import { LocalHost } from '../../server/codehost/local/localHost';
import type { RefWatcherOptions } from '../../server/codehost/local/refWatcher';
import { codeHostMigrations } from '../../server/codehost/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import type { Db } from '../../server/store/db';
import { ConfigFile, Project } from '../../shared/config';
import { SvcError } from '../../shared/errors';
import { makeRemote } from '../helpers/codehostFixtures';
import type { RemoteFixture } from '../helpers/codehostFixtures';
import { eventually, sleep } from '../helpers/scratch';

function refusal(fn: () => unknown, reason: string, message?: RegExp): SvcError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SvcError, String(e));
    assert.equal(e.reason, reason, e.message);
    if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail(`expected a refusal (${reason})`);
}

async function refusalAsync(p: Promise<unknown>, reason: string, message?: RegExp): Promise<void> {
  await p.then(
    () => assert.fail(`expected a refusal (${reason})`),
    (e) => {
      assert.ok(e instanceof SvcError, String(e));
      assert.equal(e.reason, reason, e.message);
      if (message) assert.match(e.message, message);
    },
  );
}

describe('local code host', function () {
  this.timeout(30_000);
  let r: RemoteFixture;
  let db: Db;
  let hosts: LocalHost[] = [];
  let n = 0;
  const make = (reviewer = 'svc', watch: RefWatcherOptions = {}) => {
    const h = new LocalHost({
      db,
      project: 'web',
      gitDir: r.gitDir,
      defaultBase: 'main',
      user: 'svc',
      reviewer,
      now: () => Date.now(),
      watch: { debounceMs: 50, rescanMs: 0, ...watch },
    });
    hosts.push(h);
    return h;
  };
  const record = (h: LocalHost) => {
    const seen: HeadChange[] = [];
    h.onHeadChange((c) => seen.push(c));
    return seen;
  };

  beforeEach(() => {
    r = makeRemote(`codehost-local-${n++}`);
    db = openDb(path.join(r.root, 'svc.db'), [storeMigrations, codeHostMigrations]);
    hosts = [];
  });
  afterEach(async () => {
    for (const h of hosts) await h.close();
    db.close();
    r.dispose();
  });

  it('sees pushes on the watched refs, debounced and confirmed with git; other refs move nothing', async () => {
    const host = make();
    const seen = record(host);
    const first = r.push('feature');
    const pr = await host.createPullRequest({ branch: 'feature', title: 'F' });
    assert.deepEqual(seen, [
      { project: 'web', number: pr.number, branch: 'feature', before: null, after: first, source: 'opened' },
    ]);
    const heads = [first];
    for (let i = 0; i < 3; i++) heads.push(r.push('feature'));
    await eventually(() => seen.at(-1)?.after === heads[3], 5000, 'the last push');
    r.push('unrelated');
    await sleep(300);
    const pushes = seen.slice(1);
    assert.ok(pushes.length >= 1 && pushes.length <= 3, `debounced: ${pushes.length} events for 3 pushes`);
    pushes.forEach((c, i) => {
      assert.equal(c.source, 'push');
      assert.equal(c.before, i === 0 ? first : pushes[i - 1].after);
      assert.notEqual(c.before, c.after);
    });
    assert.equal(seen.at(-1)!.after, heads[3]);
  });

  it('sees a head moved only in packed-refs', async () => {
    const host = make();
    const seen = record(host);
    const old = r.push('feature');
    await host.createPullRequest({ branch: 'feature', title: 'F' });
    const next = r.push('elsewhere');
    r.git('--git-dir', r.gitDir, 'pack-refs', '--all');
    await sleep(300);
    assert.equal(seen.length, 1, 'packing refs moves no head');
    const packed = path.join(r.gitDir, 'packed-refs');
    const text = fs.readFileSync(packed, 'utf8');
    assert.ok(!fs.existsSync(path.join(r.gitDir, 'refs/heads/feature')), 'the ref lives only in packed-refs');
    fs.writeFileSync(packed + '.tmp', text.replace(`${old} refs/heads/feature`, `${next} refs/heads/feature`));
    fs.renameSync(packed + '.tmp', packed);
    await eventually(() => seen.length === 2, 5000, 'the packed-refs change');
    assert.deepEqual([seen[1].before, seen[1].after, seen[1].source], [old, next, 'push']);
  });

  it('without file events (a file system that sends none) the ref poll sees a push and a packed-refs move within a second', async () => {
    const blind = make('svc', { fileEvents: false, pollMs: 0 });
    const seenBlind = record(blind);
    const polled = make('svc', { fileEvents: false, pollMs: 200 });
    const seen = record(polled);
    const first = r.push('feature');
    await polled.createPullRequest({ branch: 'feature', title: 'F' });
    blind.startWatching();
    await sleep(300);
    const next = r.push('feature');
    await eventually(() => seen.at(-1)?.after === next, 1500, 'the polled push');
    assert.deepEqual([seen.at(-1)!.before, seen.at(-1)!.source], [first, 'push']);
    assert.equal(
      seenBlind.filter((c) => c.source === 'push').length,
      0,
      'with neither events nor the poll nothing is seen: the poll is what saw it',
    );
    r.git('--git-dir', r.gitDir, 'pack-refs', '--all');
    const moved = r.push('elsewhere');
    r.git('--git-dir', r.gitDir, 'pack-refs', '--all');
    const packed = path.join(r.gitDir, 'packed-refs');
    fs.writeFileSync(
      packed + '.tmp',
      fs.readFileSync(packed, 'utf8').replace(`${next} refs/heads/feature`, `${moved} refs/heads/feature`),
    );
    fs.renameSync(packed + '.tmp', packed);
    await eventually(() => seen.at(-1)?.after === moved, 1500, 'the packed-refs move');
  });

  it('reports what moved while nobody watched, once, at the next start', async () => {
    const first = make();
    const old = r.push('feature');
    const pr = await first.createPullRequest({ branch: 'feature', title: 'F' });
    await first.close();
    const next = r.push('feature');
    const second = make();
    const seen = record(second);
    second.startWatching();
    await eventually(() => seen.length === 1, 5000, 'the rescan');
    assert.deepEqual(seen[0], {
      project: 'web',
      number: pr.number,
      branch: 'feature',
      before: old,
      after: next,
      source: 'rescan',
    });
    await second.rescan('rescan');
    assert.equal(seen.length, 1, 'reported once');
  });

  it("fast-forwards the base inside the bare repository; the user's checkout is untouched", async () => {
    const host = make();
    const head = r.push('feature');
    r.git('checkout', '--quiet', 'main');
    const before = {
      head: r.git('rev-parse', 'HEAD'),
      status: r.git('status', '--porcelain'),
      branch: r.git('branch', '--show-current'),
    };
    const pr = await host.createPullRequest({ branch: 'feature', title: 'F' });
    const out = await host.mergePullRequest(pr.number, { sha: head });
    assert.deepEqual(out, { sha: head, method: 'fast-forward' });
    assert.equal(r.git('--git-dir', r.gitDir, 'rev-parse', 'refs/heads/main'), head);
    assert.deepEqual(
      {
        head: r.git('rev-parse', 'HEAD'),
        status: r.git('status', '--porcelain'),
        branch: r.git('branch', '--show-current'),
      },
      before,
    );
    const merged = (await host.getPullRequest(pr.number))!;
    assert.deepEqual([merged.state, merged.head, merged.mergeSha], ['merged', head, head]);
    assert.ok(merged.mergedAt);
    await refusalAsync(
      host
        .createComment(pr.number, 'still fine')
        .then(() => make('bob').createReview(pr.number, { event: 'APPROVE', body: '', commitId: head })),
      'prNotOpen',
    );
  });

  it('makes a merge commit when the base moved on', async () => {
    const host = make();
    const head = r.push('feature', { file: 'a.txt' });
    const base = r.push('main', { file: 'b.txt' });
    const pr = await host.createPullRequest({ branch: 'feature', title: 'Feature title' });
    const out = await host.mergePullRequest(pr.number, { sha: head });
    assert.equal(out.method, 'merge');
    assert.equal(r.git('--git-dir', r.gitDir, 'rev-parse', 'refs/heads/main'), out.sha);
    assert.equal(r.git('--git-dir', r.gitDir, 'log', '-1', '--format=%P', out.sha), `${base} ${head}`);
    assert.equal(
      r.git('--git-dir', r.gitDir, 'log', '-1', '--format=%B', out.sha),
      `Merge pull request #${pr.number} from feature\n\nFeature title`,
    );
    assert.equal(r.git('--git-dir', r.gitDir, 'log', '-1', '--format=%an <%ae>', out.sha), 'svc <svc@svc.invalid>');
  });

  it('refuses a conflicting merge and changes nothing', async () => {
    const host = make();
    const head = r.push('feature', { file: 'same.txt', content: 'ours\n' });
    const base = r.push('main', { file: 'same.txt', content: 'theirs\n' });
    const pr = await host.createPullRequest({ branch: 'feature', title: 'F' });
    await refusalAsync(
      host.mergePullRequest(pr.number, { sha: head }),
      'mergeConflict',
      /^merging into 'main' conflicts in: same\.txt$/,
    );
    assert.equal(r.git('--git-dir', r.gitDir, 'rev-parse', 'refs/heads/main'), base);
    assert.equal((await host.getPullRequest(pr.number))!.state, 'open');
  });

  it('two PRs opened at once for one branch: one wins, the other is refused', async () => {
    r.push('feature');
    const results = await Promise.allSettled([
      make().createPullRequest({ branch: 'feature', title: 'A' }),
      make().createPullRequest({ branch: 'feature', title: 'B' }),
    ]);
    assert.deepEqual(results.map((x) => x.status).sort(), ['fulfilled', 'rejected']);
    const lost = results.find((x) => x.status === 'rejected') as PromiseRejectedResult;
    assert.ok(SvcError.is(lost.reason, 'prExists'), String(lost.reason));
  });

  it('refuses reviews of commits the remote does not have, and option-like branch names', async () => {
    const host = make('bob');
    r.push('feature');
    const pr = await make().createPullRequest({ branch: 'feature', title: 'F' });
    await refusalAsync(
      host.createReview(pr.number, { event: 'APPROVE', body: '', commitId: 'e'.repeat(40) }),
      'unknownCommit',
    );
    await refusalAsync(host.createPullRequest({ branch: '--upload-pack=x', title: 'x' }), 'badBranch');
    await refusalAsync(host.headSha('a..b'), 'badBranch');
    await refusalAsync(host.listReviews(404), 'unknownPr', /^no PR #404 in project web$/);
  });

  it('finds the bare repository behind the remote: a path or file:// URL; other remotes are refused', () => {
    const project = (o: Partial<Project> = {}) => Project.parse({ path: r.work, ...o });
    assert.equal(localRemote('web', project()), fs.realpathSync(r.gitDir));
    r.git('remote', 'set-url', 'origin', `file://${r.gitDir}`);
    assert.equal(localRemote('web', project()), fs.realpathSync(r.gitDir));
    r.git('remote', 'add', 'upstream', 'https://github.com/acme/web.git');
    refusal(
      () => localRemote('web', project({ remote: 'upstream' })),
      'remoteNotLocal',
      /^project web: remote 'upstream' is https:\/\/github\.com\/acme\/web\.git, not a bare repository path; set code_host: github/,
    );
    r.git('remote', 'add', 'mirror', r.work);
    refusal(() => localRemote('web', project({ remote: 'mirror' })), 'remoteNotBare');
    refusal(() => localRemote('web', project({ remote: 'nope' })), 'noRemote', /has no remote 'nope'/);
  });

  it('the reviewer identity is configurable and defaults to the PR author (marker path)', async () => {
    const deps = { db, now: () => Date.now(), env: {}, watch: { rescanMs: 0 } };
    const p = Project.parse({ path: r.work });
    const plain = createHost('web', p, ConfigFile.parse({}), deps);
    const bob = createHost('web', p, ConfigFile.parse({ codehost: { local: { reviewer: 'bob' } } }), deps);
    const named = createHost('web', p, ConfigFile.parse({ codehost: { local: { user: 'ann' } } }), deps);
    hosts.push(plain as LocalHost, bob as LocalHost, named as LocalHost);
    assert.deepEqual([await plain.whoami(), await bob.whoami(), await named.whoami()], ['svc', 'bob', 'ann']);
    const head = r.push('feature');
    const pr = await plain.createPullRequest({ branch: 'feature', title: 'F' });
    await refusalAsync(
      plain.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head }),
      'selfReviewRefused',
    );
    assert.equal((await bob.createReview(pr.number, { event: 'APPROVE', body: '', commitId: head })).state, 'APPROVED');
    refusal(
      () =>
        createHost(
          'gh',
          Project.parse({ path: r.work, code_host: 'github', github: { owner: 'a', repo: 'b' } }),
          ConfigFile.parse({}),
          deps,
        ),
      'noGithubToken',
    );
    refusal(
      () => createHost('gh', Project.parse({ path: r.work, code_host: 'github' }), ConfigFile.parse({}), deps),
      'githubNotConfigured',
    );
  });
});
