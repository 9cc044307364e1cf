// A lane's agent may start while its worktree is still being checked out: the worktree is
// registered first (`git worktree add --no-checkout`), the agent whose harness allows it
// (the script harness) starts and answers `initialize`, and its session opens once the files
// are all there. What that must never change: the agent's session sees the whole checkout; a
// harness that reads its folder as it starts (any configured command) starts after the
// checkout; a repository's post-checkout hook still runs; and a checkout that fails is refused
// as before, its agent ended and the half-made worktree gone, as `git worktree add` leaves it.
// A smudge filter that waits makes the checkout slow enough to see who runs during it: it
// writes down the command lines of the processes working in the worktree at that moment.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { SCRIPT_AGENT } from './convSupport';

/**
 * Pids of the processes started for conversation `id` of the daemon of `svcHome` (their
 * environment names both: another svc on the machine, a demo say, has its own #`id`).
 */
function agentsOf(svcHome: string, id: number): number[] {
  const pids: number[] = [];
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const env = fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0');
      if (env.includes(`SVC_CONVERSATION=${id}`) && env.includes(`SVC_HOME=${svcHome}`)) pids.push(+p);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

describe('lane start: the agent starts alongside the checkout', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let seen: string;
  /** A smudge filter that waits, writes down who works in the folder, then ends as `end` says. */
  const smudge = (name: string, end: string): string => {
    const file = path.join(s.home, `${name}.sh`);
    fs.writeFileSync(
      file,
      [
        '#!/bin/sh',
        'sleep 1',
        // Every process (this filter's own too) whose working folder is the one being checked out.
        'for p in /proc/[0-9]*; do',
        '  [ "$(readlink "$p/cwd" 2>/dev/null)" = "$PWD" ] && tr "\\0" " " < "$p/cmdline" && echo',
        `done >> '${seen}'`,
        end,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    return file;
  };

  before(async () => {
    s = makeScratch('lane-checkout');
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    // `late`: the script agent as a configured command, which svc cannot know reads nothing at start.
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      ['harnesses:', '  late:', `    command: ${process.execPath}`, `    args: [${SCRIPT_AGENT}]`, ''].join('\n'),
    );
    w = await laneWorld(s);
    seen = path.join(s.home, 'seen-during-checkout');
    git(w.repo, s.env, 'config', 'filter.slow.smudge', smudge('slow-smudge', 'exec cat'));
    git(w.repo, s.env, 'config', 'filter.slow.clean', 'cat');
    git(w.repo, s.env, 'config', 'filter.slow.required', 'true');
    fs.writeFileSync(path.join(w.repo, '.gitattributes'), 'slow.txt filter=slow\n');
    fs.writeFileSync(path.join(w.repo, 'slow.txt'), 'checked out last\n');
    git(w.repo, s.env, 'add', '.');
    git(w.repo, s.env, 'commit', '-qm', 'a file checked out slowly');
    git(w.repo, s.env, 'push', '-q', 'origin', 'HEAD:main');
  });
  after(async () => s.dispose());

  beforeEach(() => fs.rmSync(seen, { force: true }));
  /** The agent processes the filter saw (the agent's own command line; a sandbox's wrapper around it is not one). */
  const agentsSeen = () =>
    fs
      .readFileSync(seen, 'utf8')
      .split('\n')
      .filter((l) => l.trim() === `${process.execPath} ${SCRIPT_AGENT}`);

  it('starts the script agent during the checkout, and opens its session on the whole checkout', async () => {
    const lane = await startLane(w, { run: 'c', key: 'early', role: 'builder', model: 'm', prompt: 'hi' });
    assert.equal(agentsSeen().length, 1, fs.readFileSync(seen, 'utf8'));
    // The match the failed start's test relies on to see its agent gone finds a live one.
    assert.notDeepEqual(agentsOf(s.svcHome, lane.id), []);
    assert.equal(fs.readFileSync(path.join(lane.cwd, 'slow.txt'), 'utf8'), 'checked out last\n');
    assert.equal(git(lane.cwd, s.env, 'status', '--porcelain'), '');
  });

  it('starts a configured harness only once the checkout is done', async () => {
    const lane = await startLane(w, {
      run: 'c',
      key: 'late',
      role: 'builder',
      model: 'm',
      prompt: 'hi',
      harness: 'late',
    });
    assert.deepEqual(agentsSeen(), []);
    assert.equal(git(lane.cwd, s.env, 'status', '--porcelain'), '');
  });

  it("runs the repository's post-checkout hook as git worktree add does", async () => {
    const log = path.join(s.home, 'post-checkout.log');
    const hook = path.join(w.repo, '.git', 'hooks', 'post-checkout');
    fs.writeFileSync(hook, `#!/bin/sh\necho "$@" >> '${log}'\n`, { mode: 0o755 });
    try {
      const lane = await startLane(w, { run: 'c', key: 'hooked', role: 'builder', model: 'm', prompt: 'hi' });
      const head = git(lane.cwd, s.env, 'rev-parse', 'HEAD').trim();
      assert.equal(fs.readFileSync(log, 'utf8'), `${'0'.repeat(40)} ${head} 1\n`);
    } finally {
      fs.rmSync(hook);
    }
  });

  it('refuses a checkout that fails, ends the agent started for it and leaves no half-made worktree', async () => {
    git(w.repo, s.env, 'config', 'filter.slow.smudge', smudge('failing-smudge', 'cat > /dev/null; exit 1'));
    const r = await tryStartLane(w, { run: 'c', key: 'broken', role: 'builder', model: 'm', prompt: 'hi' });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /slow\.txt: smudge filter slow failed/);
    const dir = path.join(`${w.repo}-lanes`, 'c-broken');
    assert.equal(fs.existsSync(dir), false, r.stderr);
    assert.doesNotMatch(git(w.repo, s.env, 'worktree', 'list'), /c-broken/);
    // The agent was started during the checkout (the filter saw it), and is ended.
    assert.equal(agentsSeen().length, 1, fs.readFileSync(seen, 'utf8'));
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'c', '--json']))).stdout) as LaneRecord[];
    const broken = lanes.find((l) => l.name === 'c-broken-builder-i1')!;
    assert.equal(broken.activity, 'failed-to-start');
    await eventually(
      () => agentsOf(s.svcHome, broken.id).length === 0,
      20_000,
      'the agent started for the lane to end',
    );
  });
});
