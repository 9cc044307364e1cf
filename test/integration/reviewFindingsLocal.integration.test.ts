// Review findings on the local host (docs/review-findings.md), with the script quick
// reviewer writing a `## Findings` section: each finding verified at the reviewed head and
// posted on its line once; a moved line keeps its identity; new / still open / fixed over
// three commits; a finding citing a missing file or line dropped and listed with the
// reason; a malformed one reported; a dismissed finding kept off the lines across two more
// pushes until its code changes; five pushes in a burst make one review of the last.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findingId } from '../../server/review/findings';
import { git, sleep } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

/** The Convoy Notes the service appends: from its `### Findings` heading to the end of the body. */
const notesOf = (body: string) => body.slice(body.indexOf('\n### Findings\n') + 1);

describe('review findings on the local host', function () {
  this.timeout(240_000);
  let w: World;

  before(async () => {
    w = await reviewWorld('review-findings-local', { mode: 'quick' });
  });
  after(async () => w.s.dispose());

  /** Commits `files` in the issue's workspace, pushes, and waits for the review of the new head. */
  const push = async (workspace: string, id: string, files: Record<string, string>, verdicts: number) => {
    for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(workspace, f), text);
    git(workspace, w.s.env, 'add', '-A');
    git(workspace, w.s.env, 'commit', '-qm', `change ${Object.keys(files).join(', ')}`);
    git(workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
    const head = git(workspace, w.s.env, 'rev-parse', 'HEAD');
    const v = await w.waitKind(id, 'review.verdict', verdicts, 60_000);
    assert.equal(v.sha, head);
    return v;
  };

  it('posts findings on their lines once, keeps a moved finding, and says new / still open / fixed over three commits', async () => {
    const i = await w.issue('Findings feature', {
      'quick.findings': [
        '### [should-fix] feature.txt:1 — the feature names no one',
        'Say whose feature it is.',
        '',
        '### [nit] missing.txt:3 — a file that is not there',
        '',
        '### [nit] feature.txt:40 — past the end',
        '',
        '### [urgent] feature.txt:1 — no such severity',
      ].join('\n'),
    });
    await w.startWork(i.id);
    const v1 = await w.waitKind(i.id, 'review.verdict');
    // A should-fix is no blocker: the verdict stays the reviewer's APPROVED.
    assert.equal(v1.verdict, 'APPROVED');
    const a = findingId('feature.txt', [`feature of ${i.id}`], 'the feature names no one');
    assert.deepEqual(v1.findings, { new: 1, open: 0, fixed: 0, onLines: 1, dropped: 2, malformed: 1 });
    assert.deepEqual(v1.lineComments, ['feature.txt:1']);
    assert.equal(v1.since, null);
    let pr = await w.pr(1);
    assert.equal(pr.reviews.length, 1);
    assert.equal(
      notesOf(pr.reviews[0].body),
      [
        '### Findings',
        '',
        'No earlier reviewed commit: every finding is new.',
        '',
        `- ${a} new (on its line): [should-fix] feature.txt:1 — the feature names no one`,
        '',
        '### Dropped findings',
        '',
        '- review: [nit] missing.txt:3 — a file that is not there: missing.txt does not exist at the reviewed head',
        '- review: [nit] feature.txt:40 — past the end: feature.txt has 1 line at the reviewed head, not line 40',
        '',
        '### Malformed findings',
        '',
        "- review: `[urgent] feature.txt:1 — no such severity`: unknown severity 'urgent': use blocker, should-fix or nit",
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      pr.lineComments.map((c) => [c.reviewId, c.path, c.line, c.startLine, c.resolved, c.body]),
      [
        [
          pr.reviews[0].id,
          'feature.txt',
          1,
          null,
          false,
          `**[should-fix] the feature names no one**\n\nSay whose feature it is.\n\n<!-- svc-finding: ${a} -->`,
        ],
      ],
    );
    const findings1 = JSON.parse(fs.readFileSync(path.join(i.workspace, '.svc/review/r1/findings.json'), 'utf8')) as {
      findings: { id: string }[];
      posted: string[];
    };
    assert.deepEqual(
      findings1.findings.map((f) => f.id),
      [a],
    );
    assert.deepEqual(findings1.posted, [a]);
    // svc pr show lists the comment with the finding's id (what svc review dismiss takes)
    const shown = await w.ok(['pr', 'show', '1', '--project', 'web']);
    assert.match(
      shown,
      new RegExp(
        `\nline comments:\n  feature.txt:1 ${a} \\[should-fix\\] the feature names no one \\(review #${pr.reviews[0].id}\\)\nchecks:\n`,
      ),
    );

    // Commit 2: two lines above move the finding to line 3 (the same finding); a new one on b.txt.
    w.ctl(
      i.id,
      'quick.findings',
      '### [should-fix] feature.txt:3 — the feature names no one\nSay whose feature it is.\n\n### [nit] b.txt:1 — x is never read\n',
    );
    const v2 = await push(
      i.workspace,
      i.id,
      { 'feature.txt': `# header\n\nfeature of ${i.id}\n`, 'b.txt': 'let x = 1\n' },
      2,
    );
    const b = findingId('b.txt', ['let x = 1'], 'x is never read');
    assert.deepEqual(v2.findings, { new: 1, open: 1, fixed: 0, onLines: 1, dropped: 0, malformed: 0 });
    assert.deepEqual(v2.lineComments, ['b.txt:1']);
    assert.deepEqual(v2.since, { runId: 'r1', sha: v1.sha });
    pr = await w.pr(1);
    assert.equal(
      notesOf(pr.reviews[1].body),
      [
        '### Findings',
        '',
        `Compared with review r1 at ${(v1.sha as string).slice(0, 7)}.`,
        '',
        `- ${a} still open: [should-fix] feature.txt:3 — the feature names no one`,
        `- ${b} new (on its line): [nit] b.txt:1 — x is never read`,
        '',
      ].join('\n'),
    );
    assert.deepEqual(
      pr.lineComments.map((c) => [c.reviewId, `${c.path}:${c.line}`]),
      [
        [pr.reviews[0].id, 'feature.txt:1'],
        [pr.reviews[1].id, 'b.txt:1'],
      ],
      'the moved finding was not posted again',
    );

    // Commit 3: b.txt's problem is fixed (the reviewer no longer reports it); the first stays.
    // A finding on a line the PR does not change has no line to go on: the body lists it.
    w.ctl(
      i.id,
      'quick.findings',
      '### [should-fix] feature.txt:3 — the feature names no one\nSay whose feature it is.\n\n### [nit] README.md:1 — the title is the key\n',
    );
    const v3 = await push(i.workspace, i.id, { 'b.txt': 'const x = 1\n' }, 3);
    const readme = findingId('README.md', ['# web'], 'the title is the key');
    assert.deepEqual(v3.findings, { new: 1, open: 1, fixed: 1, onLines: 0, dropped: 0, malformed: 0 });
    assert.deepEqual(v3.lineComments, []);
    pr = await w.pr(1);
    assert.equal(pr.reviews.length, 3);
    assert.equal(
      notesOf(pr.reviews[2].body),
      [
        '### Findings',
        '',
        `Compared with review r2 at ${(v2.sha as string).slice(0, 7)}.`,
        '',
        `- ${a} still open: [should-fix] feature.txt:3 — the feature names no one`,
        `- ${readme} new (outside the diff: listed here only): [nit] README.md:1 — the title is the key`,
        `- ${b} fixed since: [nit] b.txt:1 — x is never read`,
        '',
      ].join('\n'),
    );
    assert.equal(pr.lineComments.length, 2, 'nothing posted on a line twice');
    // svc show (and so the Reviews tree) lists the newest posted review's findings.
    assert.deepEqual(
      (await w.show(i.id)).findings?.map((x) => [x.id, x.location, x.status, x.dismissed, x.onLine]),
      [
        [a, 'feature.txt:3', 'open', false, true],
        [readme, 'README.md:1', 'new', false, false],
        [b, 'b.txt:1', 'fixed', false, true],
      ],
    );
  });

  it('a dismissed finding stays off its line across two more pushes and returns once its code changes', async () => {
    const finding = '### [nit] feature.txt:1 — say it louder\nShout.\n';
    const i = await w.issue('Dismissed finding', { 'quick.findings': finding });
    await w.startWork(i.id);
    const v1 = await w.waitKind(i.id, 'review.verdict');
    const n = v1.pr as number;
    const f = findingId('feature.txt', [`feature of ${i.id}`], 'say it louder');
    assert.deepEqual(v1.lineComments, ['feature.txt:1']);

    // Only a person dismisses, and only a finding a posted review holds, and once.
    assert.equal(
      await w.ok(['review', 'dismiss', i.id, f]),
      `Dismissed ${f} of ${i.id} (feature.txt:1 — say it louder); resolved 1 line comment\n`,
    );
    const again = await w.fail(['review', 'dismiss', i.id, f]);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      new RegExp(`^finding ${f} of issue ${i.id} was already dismissed at \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\n$`),
    );
    const unknown = await w.fail(['review', 'dismiss', i.id, 'f-0000000000']);
    assert.equal(
      unknown.stderr,
      `issue ${i.id} has no finding f-0000000000 in any posted review; svc show ${i.id} lists the review's findings under Convoy Notes\n`,
    );
    const bad = await w.fail(['review', 'dismiss', i.id, 'fix-it']);
    assert.match(bad.stderr, /a finding id looks like f-0123456789/);
    const dismissed = w.journal(i.id).filter((e) => e.kind === 'review.dismissed');
    assert.deepEqual(
      dismissed.map((e) => [e.finding, e.location, e.title, e.runId, e.sha]),
      [[f, 'feature.txt:1', 'say it louder', null, null]],
    );
    let pr = await w.pr(n);
    assert.deepEqual(
      pr.lineComments.map((c) => [c.path, c.line, c.resolved]),
      [['feature.txt', 1, true]],
    );
    assert.match(await w.ok(['pr', 'show', String(n), '--project', 'web']), new RegExp(`${f} .* \\(resolved\\)`));

    // Two more pushes that leave its code alone: listed as dismissed, never on a line again.
    for (const [k, file] of [
      [2, 'other.txt'],
      [3, 'more.txt'],
    ] as const) {
      const v = await push(i.workspace, i.id, { [file]: `push ${k}\n` }, k);
      assert.deepEqual(v.lineComments, [], `push ${k}`);
      pr = await w.pr(n);
      assert.match(
        notesOf(pr.reviews[k - 1].body),
        new RegExp(`\n- ${f} still open \\(dismissed\\): \\[nit\\] feature.txt:1 — say it louder\n`),
      );
    }
    assert.equal(pr.lineComments.length, 1);

    // Its code changes: another finding (another id), posted on its line.
    const v4 = await push(i.workspace, i.id, { 'feature.txt': `FEATURE OF ${i.id}\n` }, 4);
    const changed = findingId('feature.txt', [`FEATURE OF ${i.id}`], 'say it louder');
    assert.notEqual(changed, f);
    assert.deepEqual(v4.lineComments, ['feature.txt:1']);
    pr = await w.pr(n);
    assert.deepEqual(
      pr.lineComments.map((c) => [c.path, c.line, c.resolved, c.body.endsWith(`<!-- svc-finding: ${changed} -->`)]),
      [
        ['feature.txt', 1, true, false],
        ['feature.txt', 1, false, true],
      ],
    );
    assert.match(notesOf(pr.reviews[3].body), new RegExp(`\n- ${changed} new \\(on its line\\): `));
  });

  it('five pushes within the quiet window make one review, of the last head; the journal lists what it coalesced', async () => {
    const i = await w.issue('Pushed in a burst');
    await w.startWork(i.id);
    await w.waitKind(i.id, 'review.verdict');
    w.configure({ mode: 'quick', debounce: 8 });
    await sleep(500); // the daemon reads config.yaml again
    const heads: string[] = [];
    const started = Date.now();
    for (let k = 1; k <= 5; k++) {
      fs.writeFileSync(path.join(i.workspace, 'burst.txt'), `push ${k}\n`);
      git(i.workspace, w.s.env, 'add', 'burst.txt');
      git(i.workspace, w.s.env, 'commit', '-qm', `burst ${k}`);
      git(i.workspace, w.s.env, 'push', '-q', 'origin', 'HEAD');
      heads.push(git(i.workspace, w.s.env, 'rev-parse', 'HEAD'));
      if (k < 5) await sleep(300);
    }
    const took = Date.now() - started;
    assert.ok(took < 8000, `the five pushes took ${took} ms, more than the quiet window: the test proves nothing`);
    const req = await w.waitKind(i.id, 'review.requested', 2, 60_000);
    assert.equal(req.sha, heads[4]);
    assert.equal(req.source, 'head-change');
    // The local host sees a push by watching the origin's refs and reading them again: two
    // pushes closer than that read are one move. So the journal lists the heads it saw, in
    // the order pushed, the newest last (on a quiet machine all five).
    const seen = req.coalesced as string[];
    assert.equal(seen.at(-1), heads[4]);
    assert.deepEqual(
      seen,
      heads.filter((h) => seen.includes(h)),
      `the coalesced heads ${seen.join(' ')} are not pushes in the order made (${heads.join(' ')})`,
    );
    await w.waitKind(i.id, 'review.verdict', 2, 60_000);
    await sleep(9000); // a second quiet window: nothing more starts
    assert.deepEqual(w.kinds(i.id), [
      'review.requested',
      'review.dispatched',
      'review.verdict',
      'review.requested',
      'review.dispatched',
      'review.verdict',
    ]);
    w.configure({ mode: 'quick' });
  });
});
