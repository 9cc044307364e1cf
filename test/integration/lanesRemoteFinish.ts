// The remote gauntlet suite's end (lanesRemote.integration.test.ts): the rest reaped on the
// host; the daemon's strace shows it never opened a path under the remote home; and, last,
// a daemon that died leaves its agents on the host to the next one, which stops them there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { alive, discoveryOf } from '../helpers/daemonProcs';
import { ok, startLane } from '../helpers/lanes';
import { eventually } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { pathArgs } from '../helpers/tracedDaemon';
import type { RemoteSuite } from './lanesRemoteSuite';

/** Reaps the rest, checks the trace, and kills the traced daemon (last). */
export function finishOnHost(get: () => RemoteSuite): void {
  it('reaps the rest on the host (clean trees: nothing to park) and archives them', async () => {
    const { s, root, lanes, onHost } = get();
    const verifier = (await lanes()).find((l) => l.role === 'verifier')!.name;
    for (const name of [
      'r1-feat-critic-i1',
      verifier,
      'r1-feat-builder-i2',
      'r1-feat-builder-i1',
      'r1-dies-builder-i1',
      'r1-flood-builder-i1',
      'r1-scripted-builder-i1',
    ]) {
      const r = await ok(s.svc(['lane', 'reap', name, '--park']));
      assert.doesNotMatch(r.stdout, /parked/);
      assert.match(r.stdout, /\narchived conv \d+\n$/);
    }
    assert.equal(
      onHost(
        `ls ${root} | grep -v caller-seen | grep -v verdict | grep -v go-slow | grep -v die-now | grep -v file-now | grep -v script-seen | grep -v -x 'flood' | grep -v flooded || true`,
      ),
      '',
    );
    const all = await lanes();
    assert.deepEqual(
      all.map((l) => [l.name, l.activity, l.reaped]),
      [
        ['r1-feat-builder-i1', 'stopped', true],
        ['r1-feat-critic-i1', 'stopped', true],
        ['r1-feat-builder-i2', 'stopped', true],
        [verifier, 'stopped', true],
        ['r1-slow-builder-i1', 'stopped', true],
        ['r1-linkdown-builder-i1', 'stopped', true],
        ['r1-dies-builder-i1', 'stopped', true],
        ['r1-held-builder-i1', 'stopped', true],
        ['r1-flood-builder-i1', 'stopped', true],
        ['r1-scripted-builder-i1', 'stopped', true],
      ],
    );
  });

  it('never opened a path under the remote home from the daemon (strace of the daemon and its children)', () => {
    const { d, traceLog } = get();
    const lines = fs.readFileSync(traceLog, 'utf8').split('\n');
    assert.ok(
      lines.some((l) => l.includes('svc.db')),
      'the trace saw the daemon open its store (the trace works)',
    );
    assert.ok(
      lines.some((l) => /execve\("[^"]*\/ssh"/.test(l)),
      'the trace saw ssh started',
    );
    const touched = lines.filter((l) =>
      pathArgs(l).some((p) => p === d.remoteHome || p.startsWith(d.remoteHome + '/')),
    );
    assert.deepEqual(touched, []);
  });

  // Last: it kills the traced daemon (the next command starts an untraced one).
  it('a daemon that died leaves its agents on the host to the next one, which stops them there and says so', async () => {
    const { s, d, w, root, conv, onHost, agentsDir, pidsIn } = get();
    const held = writeBrief(w.briefs, 'orphan.md', [{ say: 'holding' }, { run: 'sleep 600', check: true }]);
    await startLane(w, { host: 'big', run: 'r2', key: 'orphan', role: 'builder', model: 'm', brief: held });
    await eventually(async () => pidsIn(`${root}/r2-orphan`).length >= 2, 60_000, 'the agent at work on the host');
    const { pid } = discoveryOf(s);
    process.kill(pid, 'SIGKILL');
    await eventually(async () => !alive(pid), 10_000, 'the daemon to die');
    assert.ok(pidsIn(`${root}/r2-orphan`).length >= 2, 'its relay keeps the agent running on the host');
    // The next command starts a daemon, which settles the lane and stops its agent there.
    const c = await conv('r2-orphan-builder-i1');
    assert.deepEqual([c.activity, c.exitStatus], ['stopped', 'daemon restarted']);
    await eventually(async () => pidsIn(`${root}/r2-orphan`).length === 0, 60_000, 'the agent stopped on the host');
    await eventually(
      async () =>
        (await ok(s.svc(['conv', 'log', 'r2-orphan-builder-i1']))).stdout.includes(
          'its agent was still running on host big; it was stopped there',
        ),
      30_000,
      'the log to say so',
    );
    await ok(s.svc(['lane', 'reap', 'r2-orphan-builder-i1']));
    assert.equal(onHost(`test -d ${root}/r2-orphan || echo gone`), 'gone');
    // Every agent of this daemon on the host ended: no relay runs and no run folder is left.
    await eventually(
      async () => onHost(`ls -A ${agentsDir()} 2>/dev/null || true`) === '',
      10_000,
      'no run folder left on the host',
    );
    assert.equal(onHost(`pgrep -u ${d.user} -f 'svcHost[.]js relay ${d.remoteHome}/${agentsDir()}/' || true`), '');
  });
}
