// The project checks runner (server/land/checks.ts) on real git and the real sandbox: a
// fresh worktree at the commit, each check's exit, timeout and output file, the worktree
// gone afterwards, and a check confined to its worktree (it cannot write the checkout);
// a landing's kept worktree (checksTree.ts) made fresh again for the next run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runChecks } from '../../server/land/checks';
import { keptChecksTree } from '../../server/land/checksTree';
import { git, makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('land: the project checks runner', function () {
  this.timeout(60_000);
  let s: Scratch;
  let repo: string;
  let sha: string;
  let saved: NodeJS.ProcessEnv;

  before(() => {
    s = makeScratch('land-checks');
    repo = makeRepo(s).dir;
    fs.writeFileSync(path.join(repo, 'ok.txt'), 'green\n');
    git(repo, s.env, 'add', '.');
    git(repo, s.env, 'commit', '--quiet', '-m', 'ok file');
    sha = git(repo, s.env, 'rev-parse', 'HEAD');
    saved = process.env;
    process.env = { ...s.env };
  });
  after(async () => {
    process.env = saved;
    await s.dispose();
  });

  const req = (name: string, checks: { name: string; run: string; timeout: number }[], stopOnFailure = false) => ({
    repo,
    sha,
    worktree: path.join(`${repo}-lanes`, `.land-${name}`),
    outputDir: path.join(s.svcHome, 'land', name),
    checks,
    sandbox: 'workspace' as const,
    svcHome: s.svcHome,
    stopOnFailure,
  });

  it('runs each check at the commit in a fresh worktree, keeps its output and removes the worktree', async () => {
    const r = req('a', [
      { name: 'reads', run: 'cat ok.txt; echo "sha=$SVC_CHECK_SHA"', timeout: 30 },
      { name: 'fails', run: 'echo broken >&2; exit 3', timeout: 30 },
      { name: 'after', run: 'true', timeout: 30 },
    ]);
    const results = await runChecks(r);
    assert.deepEqual(
      results.map((x) => [x.name, x.ok, x.exitCode, x.timedOut, x.tail]),
      [
        ['reads', true, 0, false, `green\nsha=${sha}\n`],
        ['fails', false, 3, false, 'broken\n'],
        ['after', true, 0, false, ''],
      ],
    );
    assert.equal(results[0].outputPath, path.join(s.svcHome, 'land', 'a', 'reads.log'));
    assert.equal(fs.readFileSync(results[1].outputPath, 'utf8'), 'broken\n');
    assert.equal(fs.existsSync(r.worktree), false);
    assert.doesNotMatch(git(repo, s.env, 'worktree', 'list'), /\.land-a/);
  });

  it('stops at the first failure when asked, and ends a check at its timeout', async () => {
    const results = await runChecks(
      req(
        'b',
        [
          { name: 'slow', run: 'echo started; sleep 30', timeout: 1 },
          { name: 'never', run: 'true', timeout: 30 },
        ],
        true,
      ),
    );
    assert.equal(results.length, 1);
    assert.equal(results[0].timedOut, true);
    assert.equal(results[0].ok, false);
    assert.equal(results[0].tail, 'started\n');
    assert.ok(results[0].durationMs < 10_000, `took ${results[0].durationMs} ms`);
  });

  it('confines a check to its worktree: the checkout and SVC_HOME are out of reach', async () => {
    const results = await runChecks(
      req('c', [
        { name: 'writes-checkout', run: `echo x > ${path.join(repo, 'evil.txt')}`, timeout: 30 },
        { name: 'reads-home', run: `ls ${s.svcHome} | wc -l`, timeout: 30 },
        { name: 'writes-own', run: 'echo y > mine.txt && cat mine.txt', timeout: 30 },
      ]),
    );
    assert.equal(results[0].ok, false);
    assert.equal(fs.existsSync(path.join(repo, 'evil.txt')), false);
    assert.equal(results[1].tail.trim(), '0');
    assert.deepEqual([results[2].ok, results[2].tail], [true, 'y\n']);
  });

  it('ends a run when its signal aborts: the running check killed, no other started', async () => {
    const stop = new AbortController();
    const run = runChecks({
      ...req('d', [
        { name: 'long', run: 'echo started; sleep 30', timeout: 60 },
        { name: 'never', run: 'echo ran', timeout: 30 },
      ]),
      signal: stop.signal,
    });
    const log = path.join(s.svcHome, 'land', 'd', 'long.log');
    for (let i = 0; i < 200 && !(fs.existsSync(log) && fs.readFileSync(log, 'utf8')); i++)
      await new Promise((r) => setTimeout(r, 50));
    const t = Date.now();
    stop.abort();
    const results = await run;
    assert.ok(Date.now() - t < 5_000, `took ${Date.now() - t} ms`);
    assert.deepEqual(
      results.map((x) => [x.name, x.ok, x.exitCode, x.timedOut, x.tail]),
      [['long', false, null, false, 'started\n']],
    );
    assert.equal(fs.existsSync(path.join(s.svcHome, 'land', 'd', 'never.log')), false);
  });

  /** Every file of the worktree at `dir` but its `.git` pointer, sorted. */
  const filesOf = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => path.relative(dir, path.join(e.parentPath ?? e.path, e.name)))
      .filter((f) => f !== '.git')
      .sort();

  it('makes a kept worktree fresh for the next run: only the commit’s files, no state a check left', async () => {
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'src', 'two.txt'), 'second\n');
    git(repo, s.env, 'add', '.');
    git(repo, s.env, 'commit', '--quiet', '-m', 'second commit');
    const second = git(repo, s.env, 'rev-parse', 'HEAD');
    const tree = keptChecksTree(`${repo}-lanes`, 'main');
    assert.equal(path.basename(tree), '.land-checks-main');
    const kept = (at: string, run: string) => ({
      ...req('kept', [{ name: 'leaves-things', run, timeout: 30 }]),
      sha: at,
      worktree: tree,
      kept: { ready: false },
    });
    // The first run leaves build output, an edited tracked file and state in its git admin folder.
    const dirty = `mkdir -p out && echo built > out/bin && echo edited > ok.txt && echo x > "$(git rev-parse --git-dir)/leftover" && git rev-parse HEAD`;
    const first = await runChecks(kept(sha, dirty));
    assert.deepEqual([first[0].ok, first[0].tail], [true, `${sha}\n`]);
    const admin = git(tree, s.env, 'rev-parse', '--absolute-git-dir');
    assert.deepEqual(filesOf(tree), ['README.md', 'ok.txt', 'out/bin']);
    assert.ok(fs.existsSync(path.join(admin, 'leftover')));

    const look = `git rev-parse HEAD; git status --porcelain --ignored; cat ok.txt src/two.txt; ls "$(git rev-parse --git-dir)"`;
    const next = await runChecks(kept(second, look));
    assert.deepEqual(
      [next[0].ok, next[0].tail],
      [true, `${second}\ngreen\nsecond\nHEAD\ncommondir\ngitdir\nindex\nlogs\n`],
    );
    // Still the same worktree, in place for the landing after.
    assert.equal(git(tree, s.env, 'rev-parse', '--absolute-git-dir'), admin);
    assert.deepEqual(filesOf(tree), ['README.md', 'ok.txt', 'src/two.txt']);
  });

  it('makes a kept worktree anew when its .git no longer points at its own admin folder', async () => {
    const tree = keptChecksTree(`${repo}-lanes`, 'main');
    const other = makeRepo(s, 'elsewhere').dir;
    const otherHead = git(other, s.env, 'rev-parse', 'HEAD');
    fs.writeFileSync(path.join(tree, '.git'), `gitdir: ${path.join(other, '.git')}\n`);
    const r = await runChecks({
      ...req('anew', [{ name: 'where', run: 'git rev-parse HEAD; ls', timeout: 30 }]),
      worktree: tree,
      kept: { ready: false },
    });
    assert.deepEqual([r[0].ok, r[0].tail], [true, `${sha}\nREADME.md\nok.txt\n`]);
    // The other repository was not checked out over; the tree is one of the project's again.
    assert.equal(git(other, s.env, 'rev-parse', 'HEAD'), otherHead);
    assert.equal(git(other, s.env, 'status', '--porcelain'), '');
    assert.match(git(repo, s.env, 'worktree', 'list'), /\.land-checks-main +[0-9a-f]+ \(detached HEAD\)/);
  });
});
