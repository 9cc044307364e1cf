// A full disk under svc: SVC_HOME, the project and its lanes on a small tmpfs, filled to a
// few KiB short of full, then `svc lane start`. Whatever step runs out of space first (the
// store, git's worktree, the agent's start), the command ends with a refusal or a start,
// the daemon throws nothing uncaught, and once space is freed the lane reads what happened:
// failed-to-start with its reason, or running. A tmpfs needs root to mount; as another user
// this file says so and does not run.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, tryStartLane } from '../helpers/lanes';
import { eventually, makeScratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('a full disk during svc lane start', function () {
  this.timeout(180_000);

  before(function () {
    if (process.getuid?.() !== 0) {
      console.log('      (not run: mounting a small tmpfs to fill needs root; CI runs as root)');
      this.skip();
    }
  });

  for (const leaveKiB of [8, 48, 72, 96]) {
    it(`${leaveKiB} KiB left: a refusal or a start, nothing uncaught, and after freeing space the lane reads what happened`, async () => {
      const s = makeScratch('diskFull');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0755', 'tmpfs', s.home]);
      try {
        const w = await laneWorld(s);
        const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]);
        const fill = path.join(s.home, 'fill');
        spawnSync('sh', ['-c', `dd if=/dev/zero of='${fill}' bs=64k 2>/dev/null; truncate -s -${leaveKiB}K '${fill}'`]);
        const r = await tryStartLane(w, { run: 'df', key: 'k', role: 'builder', model: 'm', brief: idle });
        if (r.code !== 0) {
          // The store's write, a file svc writes for the lane's own repository, or git's: git's
          // own words need not name the disk ("couldn't write …lock"), svc's do.
          assert.equal(r.code, 1, r.stderr);
          assert.match(
            r.stderr,
            /^(lanes\/start refused: the disk is full \((database or disk is full|ENOSPC: no space left on device, [a-z]+)\); the command was not carried out, or only its first steps were, which svc records once there is space\. Free space on the disk of SVC_HOME and the lanes, then run it again|lane directory could not be prepared: git .*; the disk of \S+ is full \(\d+ KiB free\): free space on it, then run it again)\n$/,
          );
        } else assert.match(r.stdout, /^Lane df\/k builder i1: conv \d+ /);
        fs.rmSync(fill);
        const lanes = async () => JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
        const lane = (await lanes()).find((l) => l.name === 'df-k-builder-i1');
        if (lane) {
          const settled = await eventually(
            async () => {
              const l = (await lanes()).find((x) => x.name === 'df-k-builder-i1')!;
              return l.activity === 'starting' ? undefined : l;
            },
            10_000,
            'the lane leaves starting',
          );
          assert.ok(['failed-to-start', 'idle', 'working'].includes(settled.activity), settled.activity);
          const waited = await s.svc(['lane', 'wait', 'df-k-builder-i1', '--timeout', '2']);
          if (settled.activity === 'failed-to-start') {
            assert.equal(waited.code, 2, waited.stderr);
            const shown = await ok(s.svc(['conv', 'show', 'df-k-builder-i1', '--json']));
            assert.ok((JSON.parse(shown.stdout) as { spawnError: string | null }).spawnError, 'the reason is recorded');
          }
          await s.svc(['lane', 'stop', 'df-k-builder-i1']);
        }
        const log = fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8');
        assert.doesNotMatch(log, /uncaught exception|unhandled rejection|internal error/);
        // A new start works once there is space.
        const again = await ok(tryStartLane(w, { run: 'df2', key: 'k', role: 'builder', model: 'm', brief: idle }));
        assert.match(again.stdout, /^Lane df2\/k builder i1: /);
      } finally {
        await s.svc(['daemon', 'stop', '--force']).catch(() => undefined);
        execFileSync('umount', ['-l', s.home]);
        await s.dispose();
      }
    });
  }
});
