// kill -9 of the daemon in the middle of a landing's checks: the base is unmoved, and the
// next daemon runs the landing again and lands it (nothing lost, nothing landed twice).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { daemonPids } from '../helpers/daemonProcs';
import { buildAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import { eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('fault: kill -9 of the daemon mid-landing', function () {
  this.timeout(180_000);
  let s: Scratch;
  before(() => (s = makeScratch('land-kill')));
  after(async () => s.dispose());

  it('leaves the base unmoved, and the restarted daemon lands it once', async () => {
    const w = await laneWorld(s);
    fs.appendFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      `    gauntlet:\n      checks:\n        - { name: test, run: 'echo started; sleep 3; echo green', timeout: 60 }\n`,
    );
    const brief = writeBrief(w.briefs, 'k.md', [{ run: buildAndReport('k.txt', 'survives'), check: true }]);
    const lane = await startLane(w, { run: 'r1', key: 'k', role: 'builder', model: 'm', brief });
    assert.equal((await s.svc(['lane', 'wait', lane.name, '--timeout', '60'])).code, 0);
    const before = git(w.repo, s.env, 'ls-remote', w.origin, 'refs/heads/main').split('\t')[0];
    await ok(s.svc(['lane', 'land', lane.name]));
    const log = path.join(s.svcHome, 'land', '1', 'test.log');
    await eventually(
      () => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('started'),
      30_000,
      'check started',
    );
    for (const pid of daemonPids(s.svcHome)) process.kill(pid, 'SIGKILL');
    assert.equal(git(w.repo, s.env, 'ls-remote', w.origin, 'refs/heads/main').split('\t')[0], before);
    await ok(s.svc(['lane', 'runs']));
    const landed = await eventually(
      () => {
        const db = new Database(path.join(s.svcHome, 'svc.db'), { readonly: true });
        try {
          const r = db.prepare(`SELECT state, landed_sha AS sha FROM landings WHERE id = 1`).get() as
            { state: string; sha: string } | undefined;
          return r?.state === 'landed' ? r : undefined;
        } finally {
          db.close();
        }
      },
      60_000,
      'landing 1 landed',
    );
    assert.equal(git(w.repo, s.env, 'ls-remote', w.origin, 'refs/heads/main').split('\t')[0], landed.sha);
    assert.equal(git(w.repo, s.env, '--git-dir', w.origin, 'show', 'main:k.txt'), 'survives');
  });
});
