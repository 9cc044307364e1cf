// The daemon's one git runner: every caller (the text runner of lanes and issues, the
// synchronous probes, reap's byte runner) ignores variables that point git at another
// repository, which a daemon started from inside a git hook would inherit.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, GitError } from '../../server/git/git';
import { GitTimeout, gitText, gitTextSync } from '../../server/git/gitExec';

const REPO = path.resolve(__dirname, '..', '..');

describe('git runner', () => {
  const dir = path.join(REPO, '.scratch', `unit-gitrunner-${process.pid}`);
  const mine = path.join(dir, 'mine');
  const other = path.join(dir, 'other');
  const saved: Record<string, string | undefined> = {};

  before(() => {
    for (const d of [mine, other]) {
      fs.mkdirSync(d, { recursive: true });
      execFileSync('git', ['init', '-q', '-b', path.basename(d), d]);
    }
    for (const v of ['GIT_DIR', 'GIT_WORK_TREE']) saved[v] = process.env[v];
    process.env.GIT_DIR = path.join(other, '.git');
    process.env.GIT_WORK_TREE = other;
  });
  after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs in the folder it is given, whatever GIT_DIR and GIT_WORK_TREE say', async () => {
    const top = fs.realpathSync(mine);
    assert.equal((await git(mine, ['rev-parse', '--show-toplevel'])).trim(), top);
    assert.equal(await gitText(mine, ['rev-parse', '--show-toplevel']), top);
    assert.equal(gitTextSync(mine, ['rev-parse', '--show-toplevel']), top);
    assert.equal((await git(mine, ['symbolic-ref', '--short', 'HEAD'])).trim(), 'mine');
  });

  it('reports a failing git with its arguments, exit code and stderr', async () => {
    await assert.rejects(git(mine, ['rev-parse', '--verify', 'no-such-ref']), (e: unknown) => {
      assert.ok(e instanceof GitError);
      assert.deepEqual(e.args, ['rev-parse', '--verify', 'no-such-ref']);
      assert.equal(e.code, 128);
      assert.match(
        e.message,
        /^git rev-parse --verify no-such-ref failed \(exit 128\): fatal: Needed a single revision$/,
      );
      return true;
    });
    assert.equal(gitTextSync(mine, ['rev-parse', '--verify', 'no-such-ref']), undefined);
  });
});

describe('git runner: a call with a time limit', () => {
  const dir = path.join(REPO, '.scratch', `unit-gitrunner-timeout-${process.pid}`);
  const fifo = path.join(dir, 'never');
  before(() => {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('git', ['init', '-q', dir]);
    execFileSync('mkfifo', [fifo]);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rejects with GitTimeout when git does not answer, and kills it', async () => {
    const t = Date.now();
    // git blocks opening a FIFO nobody writes, as on a filesystem that stopped answering.
    await assert.rejects(git(dir, ['hash-object', '--', fifo], { timeoutMs: 300 }), (e: unknown) => {
      assert.ok(e instanceof GitTimeout);
      assert.equal(e.short, 'git did not answer within 0.3 s');
      assert.equal(e.message, `git did not answer within 0.3 s (git hash-object -- ${fifo} in ${dir})`);
      return true;
    });
    assert.ok(Date.now() - t < 2000, `answered after ${Date.now() - t} ms`);
    // Killed: a writer that opens the FIFO now finds no reader (ENXIO), not a git still waiting.
    await new Promise((r) => setTimeout(r, 200));
    assert.throws(() => fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK), /ENXIO/);
  });

  it('answers as before when git is quick', async () => {
    assert.equal((await git(dir, ['rev-parse', '--is-inside-work-tree'], { timeoutMs: 5000 })).trim(), 'true');
  });
});
