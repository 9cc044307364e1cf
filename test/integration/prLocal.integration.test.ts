// `svc pr create|list|show|review|merge` on the local code host, through the real shim
// and daemon, over a real bare repository; head changes reach clients as pr/headChanged.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listenHeadChanges } from '../helpers/codehostFixtures';
import { git, makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('svc pr on the local code host', function () {
  this.timeout(120_000);
  let s: Scratch;
  let dir: string;
  let origin: string;
  const commit = (file: string) => {
    fs.writeFileSync(path.join(dir, file), `${file} ${Date.now()}\n`);
    git(dir, s.env, 'add', '.');
    git(dir, s.env, 'commit', '--quiet', '-m', `add ${file}`);
    git(dir, s.env, 'push', '--quiet', 'origin', 'HEAD:refs/heads/feature');
    return git(dir, s.env, 'rev-parse', 'HEAD');
  };
  const svc = (args: string[]) => s.svc(args, { cwd: dir });
  const showJson = async (ref = '1') => {
    const r = await svc(['pr', 'show', ref, '--json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  before(async () => {
    s = makeScratch('pr-local');
    ({ dir, origin } = makeRepo(s));
    const add = await s.svc(['project', 'add', 'proj', dir]);
    assert.equal(add.code, 0, add.stderr);
    git(dir, s.env, 'checkout', '--quiet', '-b', 'feature');
  });
  after(async () => s?.dispose());

  it('opens, shows, refuses own approval and unready merges, approves as a second identity, goes stale on push, merges', async () => {
    const first = commit('a.txt');
    const s1 = first.slice(0, 7);
    const created = await s.svc(['pr', 'create', '--project', 'proj', '--branch', 'feature', '--title', 'Add a']);
    assert.deepEqual(
      [created.code, created.stdout, created.stderr],
      [0, `Opened proj#1: feature → main at ${s1}\n`, ''],
    );

    const list = await svc(['pr', 'list']);
    assert.deepEqual([list.code, list.stdout], [0, `proj#1\topen\tfeature → main\t${s1}\tAdd a\n`]);

    const show = await svc(['pr', 'show', '1']);
    assert.equal(show.code, 0, show.stderr);
    assert.equal(
      show.stdout,
      [
        'proj#1 open: Add a',
        '  branch  feature → main',
        `  head    ${s1}`,
        '  author  svc (the service reviews as svc; local code host)',
        'reviews:',
        '  (none)',
        'checks:',
        '  (none)',
        'not ready to merge:',
        `  - no approval for the head ${s1}`,
        '',
      ].join('\n'),
    );

    const own = await svc(['pr', 'review', '1', '--approve']);
    assert.deepEqual(
      [own.code, own.stdout, own.stderr],
      [1, '', 'the code host refused a review of PR #1 by its author svc: Can not approve your own pull request\n'],
    );

    const early = await svc(['pr', 'merge', '1']);
    assert.deepEqual(
      [early.code, early.stdout, early.stderr],
      [1, '', `PR proj#1 is not ready to merge:\n  - no approval for the head ${s1}\n`],
    );

    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      '# a second identity reviews\ncodehost:\n  local:\n    reviewer: bob\n',
    );
    const approve = await svc(['pr', 'review', 'feature', '--approve', '--body', 'fine']);
    assert.deepEqual(
      [approve.code, approve.stdout, approve.stderr],
      [0, `Reviewed proj#1: APPROVED at ${s1} as bob\n`, ''],
    );
    const ready = await showJson();
    assert.deepEqual(
      [
        ready.readiness.ready,
        ready.identity,
        ready.reviews.map((r: { author: string; state: string; commitId: string }) => [r.author, r.state, r.commitId]),
      ],
      [true, 'bob', [['bob', 'APPROVED', first]]],
    );

    const listener = await listenHeadChanges(s.svcHome);
    try {
      const second = commit('b.txt');
      const s2 = second.slice(0, 7);
      assert.deepEqual(await listener.next(), {
        project: 'proj',
        number: 1,
        branch: 'feature',
        before: first,
        after: second,
        source: 'push',
      });
      const stale = await showJson();
      assert.deepEqual([stale.pr.head, stale.readiness.ready, stale.readiness.stale], [second, false, true]);
      const refused = await svc(['pr', 'merge', '1']);
      assert.deepEqual(
        [refused.code, refused.stderr],
        [
          1,
          `PR proj#1 is not ready to merge:\n  - no approval for the head ${s2}\n  - approval by bob is for ${s1}, not the head ${s2}\n`,
        ],
      );
      assert.equal(
        git(origin, s.env, 'rev-parse', 'refs/heads/main'),
        git(dir, s.env, 'rev-parse', 'origin/main'),
        'main did not move',
      );

      assert.equal((await svc(['pr', 'review', '1', '--approve'])).code, 0);
      const status = git(dir, s.env, 'status', '--porcelain');
      const merged = await svc(['pr', 'merge', '1']);
      assert.deepEqual(
        [merged.code, merged.stdout, merged.stderr],
        [0, `Merged proj#1 into main (fast-forward, ${s2})\n`, ''],
      );
      assert.equal(git(origin, s.env, 'rev-parse', 'refs/heads/main'), second);
      assert.deepEqual(
        [
          git(dir, s.env, 'branch', '--show-current'),
          git(dir, s.env, 'rev-parse', 'HEAD'),
          git(dir, s.env, 'status', '--porcelain'),
        ],
        ['feature', second, status],
      );
      assert.equal(
        (await svc(['pr', 'list', '--state', 'merged'])).stdout,
        `proj#1\tmerged\tfeature → main\t${s2}\tAdd a\n`,
      );
      assert.equal((await svc(['pr', 'list'])).stdout, 'no open PRs\n');
      const after = await showJson('#1');
      assert.deepEqual([after.pr.state, after.pr.mergeSha], ['merged', second]);
    } finally {
      listener.close();
    }
    const log = fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8');
    assert.match(log, /\[codehost\] head change proj#1 [0-9a-f]{7} → [0-9a-f]{7} \(push\)/);
  });

  it('refuses bad input with the reason, before asking the daemon where it can', async () => {
    const noTitle = await s.svc(['pr', 'create', '--project', 'proj', '--branch', 'feature']);
    assert.equal(noTitle.code, 1);
    assert.match(noTitle.stderr, /^svc pr create: --title is required\n/);
    const noEvent = await svc(['pr', 'review', '1']);
    assert.match(noEvent.stderr, /^svc pr review: give exactly one of --approve, --request-changes, --comment\n/);
    const badState = await svc(['pr', 'list', '--state', 'draft']);
    assert.match(badState.stderr, /^svc pr list: --state must be open, closed, merged or all, got 'draft'\n/);
    const missing = await svc(['pr', 'show', '99']);
    assert.deepEqual([missing.code, missing.stderr], [1, 'no PR #99 in project proj\n']);
    const unpushed = await s.svc(['pr', 'create', '--project', 'proj', '--branch', 'nowhere', '--title', 'x']);
    assert.deepEqual(
      [unpushed.code, unpushed.stderr],
      [1, `branch 'nowhere' is not on the remote ${fs.realpathSync(origin)}; push it first\n`],
    );
    const unknown = await s.svc(['pr', 'list', '--project', 'nope']);
    assert.deepEqual(
      [unknown.code, unknown.stderr],
      [1, "unknown project 'nope' (see svc project list; add one with svc project add <key> <path>)\n"],
    );
  });
});
