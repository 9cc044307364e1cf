// Issues: ids per project, the workspace worktree and its own excludes, list/show, the
// work agent, and `svc done`'s refusals (nothing to review, a dirty workspace, no issue).
import * as assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IssueInfo } from '../../shared/protocol/issues';
import { git } from '../helpers/scratch';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

describe('issues', function () {
  this.timeout(120_000);
  let w: World;
  let root: string;

  before(async () => {
    w = await reviewWorld('issue-life', { mode: 'quick' });
    root = `${w.repo}-lanes`;
  });
  after(async () => w.s.dispose());

  it('svc issue new: <PROJECT>-<n>, a worktree on issue/<id> from origin/main, review files excluded', async () => {
    const out = await w.ok([
      'issue',
      'new',
      '--project',
      'web',
      '--title',
      'First issue',
      '--body',
      'Do the first thing.',
    ]);
    const ws = path.join(fs.realpathSync(root), 'issue-web-1');
    assert.equal(out, `Issue WEB-1: First issue\n  workspace ${ws} on issue/web-1\n`);
    assert.equal(git(ws, w.s.env, 'rev-parse', '--abbrev-ref', 'HEAD'), 'issue/web-1');
    assert.equal(git(ws, w.s.env, 'rev-parse', 'HEAD'), git(w.repo, w.s.env, 'rev-parse', 'origin/main'));
    // Excluded in the workspace only: the shared info/exclude would hide them in every lane too.
    const shared = path.join(w.repo, '.git', 'info', 'exclude');
    const exclude = fs.existsSync(shared) ? fs.readFileSync(shared, 'utf8') : '';
    assert.doesNotMatch(exclude, /^\.svc\/$/m);
    assert.doesNotMatch(exclude, /^review\.md$/m);
    fs.mkdirSync(path.join(ws, '.svc'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.svc', 'pipeline.jsonl'), '');
    fs.writeFileSync(path.join(ws, 'review.md'), '# Verdict: APPROVED\n');
    assert.equal(git(ws, w.s.env, 'status', '--porcelain'), '');
    const lane = path.join(root, 'some-lane');
    git(w.repo, w.s.env, 'worktree', 'add', '--quiet', '--detach', lane);
    fs.writeFileSync(path.join(lane, 'review.md'), 'a lane of its own\n');
    fs.mkdirSync(path.join(lane, '.svc'));
    fs.writeFileSync(path.join(lane, '.svc', 'notes.md'), 'notes\n');
    assert.equal(
      git(lane, w.s.env, 'status', '--porcelain', '--untracked-files=all'),
      '?? .svc/notes.md\n?? review.md',
    );
    git(w.repo, w.s.env, 'worktree', 'remove', '--force', lane);

    const bodyFile = path.join(w.s.home, 'brief.md');
    fs.writeFileSync(bodyFile, '## Done when\n- it works\n');
    const second = JSON.parse(
      await w.ok(['issue', 'new', '--project', 'web', '--title', 'Second', '--body-file', bodyFile, '--json']),
    ) as IssueInfo;
    assert.equal(second.id, 'WEB-2');
    assert.equal(second.body, '## Done when\n- it works\n');
    assert.equal(second.branch, 'issue/web-2');
    assert.equal(second.agent, null);

    assert.equal(await w.ok(['issue', 'list']), 'WEB-1\tno work agent\tFirst issue\nWEB-2\tno work agent\tSecond\n');
    const shown = JSON.parse(await w.ok(['issue', 'show', 'web-2', '--json'])) as IssueInfo;
    assert.equal(shown.id, 'WEB-2');
    assert.equal((await w.fail(['issue', 'show', 'WEB-9'])).stderr, 'no issue WEB-9 (see svc issue list)\n');
    const both = await w.fail([
      'issue',
      'new',
      '--project',
      'web',
      '--title',
      'x',
      '--body',
      'a',
      '--body-file',
      bodyFile,
    ]);
    assert.equal(both.stderr.split('\n')[0], 'svc issue new: give --body or --body-file, not both');
  });

  it('svc done refuses a branch with nothing to review and a dirty workspace, and needs an issue', async () => {
    const nothing = await w.fail(['done', 'WEB-1']);
    assert.equal(
      nothing.stderr,
      'issue/web-1 has no commits beyond origin/main; commit your work, then run svc done\n',
    );
    const ws = path.join(fs.realpathSync(root), 'issue-web-1');
    fs.writeFileSync(path.join(ws, 'work.txt'), 'half done\n');
    const dirty = await w.fail(['done', 'WEB-1']);
    assert.equal(
      dirty.stderr,
      `the workspace ${ws} of WEB-1 has uncommitted changes; commit them first (svc done pushes commits, not files)\n`,
    );
    const noIssue = await w.fail(['done']);
    assert.equal(noIssue.stderr.split('\n')[0], 'svc done: give the issue id, or run svc done inside the work agent');
    assert.deepEqual(w.kinds('WEB-1'), []);
    fs.rmSync(path.join(ws, 'work.txt'));
  });

  it('svc done after the remote branch moved: an ordinary refusal (exit 1) whose printed command lets the push go through', async () => {
    const ws = path.join(fs.realpathSync(root), 'issue-web-2');
    fs.writeFileSync(path.join(ws, 'theirs.txt'), 'pushed by someone else\n');
    git(ws, w.s.env, 'add', 'theirs.txt');
    git(ws, w.s.env, 'commit', '-qm', 'theirs');
    git(ws, w.s.env, 'push', '-q', 'origin', 'HEAD:refs/heads/issue/web-2');
    git(ws, w.s.env, 'reset', '-q', '--hard', 'HEAD~1');
    fs.writeFileSync(path.join(ws, 'mine.txt'), 'my work\n');
    git(ws, w.s.env, 'add', 'mine.txt');
    git(ws, w.s.env, 'commit', '-qm', 'mine');
    const remoteBefore = git(w.repo, w.s.env, 'ls-remote', 'origin', 'refs/heads/issue/web-2');

    const r = await w.fail(['done', 'WEB-2']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `origin's issue/web-2 has commits that the workspace ${ws} of WEB-2 does not (the push was not a fast-forward); nothing was pushed. Bring them in, then run svc done again: cd '${ws}' && git pull --rebase origin issue/web-2\n`,
    );
    assert.equal(git(w.repo, w.s.env, 'ls-remote', 'origin', 'refs/heads/issue/web-2'), remoteBefore);
    assert.deepEqual(w.kinds('WEB-2'), []);
    // The printed command works as printed: afterwards the push is a fast-forward.
    execSync(r.stderr.slice(r.stderr.indexOf(': cd ') + 2).trim(), { shell: '/bin/sh', env: w.s.env, stdio: 'pipe' });
    git(ws, w.s.env, 'push', '-q', '--dry-run', 'origin', 'HEAD:refs/heads/issue/web-2');
    assert.equal(git(ws, w.s.env, 'log', '--format=%s', '-2'), 'mine\ntheirs');
  });

  it('svc issue start runs agent-<id> in the workspace; svc done from it pushes, opens the PR and requests a review', async () => {
    const i = await w.issue('Third');
    const out = await w.ok(['issue', 'start', i.id, '--harness', 'script', '--model', 'work-model']);
    assert.match(out, new RegExp(`^Work agent agent-web-3 \\(#\\d+\\) of WEB-3: alive in ${i.workspace}\\n$`));
    const again = await w.fail(['issue', 'start', i.id, '--harness', 'script', '--model', 'work-model']);
    assert.match(
      again.stderr,
      /^the work agent agent-web-3 \(#\d+\) of WEB-3 is already running; stop it first \(svc conv stop #\d+\)\n$/,
    );
    await w.waitKind(i.id, 'review.verdict');
    const done = fs.readFileSync(path.join(w.s.home, 'ctl', i.id, 'done.out'), 'utf8');
    assert.match(done, /^Pushed issue\/web-3 at [0-9a-f]{7}; opened PR #1\nReview r1 \(quick\) requested\n$/);
    // The work agent could not open the PR itself; svc done opened it for it.
    const own = fs.readFileSync(path.join(w.s.home, 'ctl', i.id, 'pr-create.out'), 'utf8');
    assert.match(
      own,
      /^an agent may not open a pull request directly \(svc pr create\); finish the issue with svc done, which opens it: only the person may; you are agent #\d+ \(agent-web-3\) — ask the person\nexit 1\n$/,
    );
    const req = w.journal(i.id)[0];
    assert.equal(req.by, 'agent-web-3');
    const conv = JSON.parse(await w.ok(['conv', 'show', 'agent-web-3', '--json'])) as {
      kind: string;
      issueId: string;
      cwd: string;
    };
    assert.equal(conv.kind, 'agent');
    assert.equal(conv.issueId, 'WEB-3');
    assert.equal(conv.cwd, i.workspace);
    const listed = await w.ok(['issue', 'list']);
    assert.match(listed, /\nWEB-3\tagent-web-3 (idle|working)\tThird\n$/);
    const text = await w.ok(['show', i.id]);
    assert.match(text, /^WEB-3: Third\n {2}branch {6}issue\/web-3\n/);
    assert.match(text, /\n {2}PR {10}#1 open, head [0-9a-f]{7}, review approved\n {2}merge {7}ready\n/);
    assert.match(
      text,
      /\njournal:\n {2}\S+ {2}review\.requested {4}r1 [0-9a-f]{7} {2}mode=quick source=done by=agent-web-3\n/,
    );
  });
});
