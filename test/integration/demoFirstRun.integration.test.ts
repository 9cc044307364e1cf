// `npm run demo` on a fresh machine (Node and git, no bubblewrap): it runs its scripted
// lanes with the sandbox off, says so in one line with how to get the default, and
// completes; CI's lines are still there. And the demo's progress follower reports a lane
// that fails to start at once, with its spawn error, so the demo stops instead of waiting.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { followRun } from '../../scripts/demo/progress';
import { laneWorld, tryStartLane } from '../helpers/lanes';
import { BIN_DIR, REPO, makeScratch, run } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { toolBin } from '../helpers/toolBin';

/** A folder of links to every program on PATH but bwrap: this machine as one without bubblewrap. */
function pathWithoutBwrap(s: Scratch): string {
  const bin = path.join(s.root, 'bin-without-bwrap');
  fs.mkdirSync(bin);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean))
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      if (name !== 'bwrap' && !fs.existsSync(path.join(bin, name)))
        fs.symlinkSync(path.join(dir, name), path.join(bin, name));
  if (!fs.existsSync(path.join(bin, 'node'))) fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  return bin;
}

describe('npm run demo without bubblewrap', function () {
  this.timeout(420_000);
  let s: Scratch;
  after(async () => s.dispose());

  it('runs its lanes with the sandbox off, says so in one line with the install command, and completes', async () => {
    s = makeScratch('demo-no-bwrap');
    const bin = pathWithoutBwrap(s);
    const r = await run(process.execPath, ['--require', 'tsx/cjs', path.join(REPO, 'scripts', 'demo', 'demo.ts')], {
      env: { ...process.env, PATH: bin, SVC_DEMO_HOME: s.home },
      cwd: REPO,
      timeoutMs: 400_000,
    });
    assert.equal(r.code, 0, `the demo failed:\n${r.stdout}\n${r.stderr}`);
    const lines = r.stdout.split('\n');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('  sandbox off:')),
      [
        '  sandbox off: bubblewrap (bwrap) is not installed or not on PATH; for the default sandbox, install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
      ],
    );
    // The lines .ci/run greps for.
    assert.ok(lines.includes('i1 built → critic c1: NOT_YET (2 defects) → i2 built → critic c2: PASS'), r.stdout);
    assert.match(r.stdout, /review\.verdict .*verdict=APPROVED/);
    assert.ok(lines.includes('  6 lanes ran unconfined (the sandbox could not start here; see above)'), r.stdout);
  });
});

describe("the demo's progress follower: a lane that fails to start", function () {
  this.timeout(120_000);
  let s: Scratch;
  after(async () => s.dispose());

  it('is reported at once with its spawn error', async () => {
    s = makeScratch('demo-failed-start');
    const bin = toolBin(s.root, 'bin-without-bwrap');
    s.env.PATH = [BIN_DIR, bin].join(path.delimiter);
    const w = await laneWorld(s);
    const progress = await followRun(
      path.join(s.svcHome, 'server.json'),
      'fs',
      () => undefined,
      () => false,
    );
    try {
      const r = await tryStartLane(w, { run: 'fs', key: 'k', role: 'builder', model: 'm', prompt: 'hi' });
      assert.equal(r.code, 1);
      const lane = await progress.failed;
      assert.equal(lane.name, 'fs-k-builder-i1');
      assert.match(lane.spawnError ?? '', /bubblewrap \(bwrap\) is not installed or not on the daemon's PATH/);
    } finally {
      progress.close();
    }
  });
});
