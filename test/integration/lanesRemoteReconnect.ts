// The remote gauntlet suite's connection drops (lanesRemote.integration.test.ts): a killed
// connection is not a lost lane (the agent keeps running under svc's relay, svc reconnects by
// itself, the lane completes and is reaped with --park, its patch brought home and restorable
// as printed), and a report filed while the link is down waits and arrives once.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildAndReport, ok, startLane } from '../helpers/lanes';
import { eventually } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import type { RemoteSuite } from './lanesRemoteSuite';

/** Lanes whose connection drops, going on once svc reconnects. */
export function reconnectsToHost(get: () => RemoteSuite): void {
  it('a killed connection is not a lost lane: the agent keeps running on the host, the lane shows it, svc reconnects by itself and the lane completes', async () => {
    const { s, d, w, root, lane, conv, onHost, sshRe, pidsIn, agentIn, dropConnection } = get();
    const slow = writeBrief(w.briefs, 'slow.md', [
      { say: 'working' },
      {
        run: `while [ ! -f ../go-slow ]; do sleep 0.2; done; ${buildAndReport('slow.txt', 'slow work', 'finished after the reconnect')}`,
        check: true,
      },
      { write: { path: 'wip.txt', content: 'work in progress\n' } },
      { sleep: 600_000 },
    ]);
    await startLane(w, { host: 'big', run: 'r1', key: 'slow', role: 'builder', model: 'm', brief: slow });
    await eventually(async () => pidsIn(`${root}/r1-slow`).length >= 2, 60_000, 'the agent at work on the host');
    const agent = agentIn(`${root}/r1-slow`);
    assert.equal(agent.length, 1, `the agent runs in the lane on the host (${pidsIn(`${root}/r1-slow`).join(' ')})`);

    await dropConnection();
    const lost = await eventually(
      async () => (await conv('r1-slow-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    assert.match(
      lost.text,
      /^connection to host big lost \(.+\); the agent keeps running there and svc is reconnecting \(attempt \d+\)$/,
    );
    const listed = await lane('r1-slow-builder-i1');
    assert.equal(listed.activity, 'working', 'still working: the agent runs on');
    assert.equal(listed.hostLost?.since, lost.since);
    assert.match(
      (await ok(s.svc(['lane', 'list', '--run', 'r1']))).stdout,
      /\n#\d+ +r1\/slow +builder +i1 +working \(host connection lost\) /,
    );
    assert.match(
      (await ok(s.svc(['lane', 'show', 'r1-slow-builder-i1']))).stdout,
      /\n#\d+ builder i1 working - -\n {4}connection to host big lost \(/,
    );
    // Still running on the host, the same processes, with no connection to this machine.
    assert.deepEqual(agentIn(`${root}/r1-slow`), agent);
    assert.match((await ok(s.svc(['conv', 'log', 'r1-slow-builder-i1']))).stdout, /connection to host big lost \(/);

    // svc reconnects by itself once the host answers again (conv show never touches the host).
    await d.resume();
    await eventually(
      async () => (await conv('r1-slow-builder-i1')).hostLost === null,
      90_000,
      'svc to reconnect by itself',
    );
    const back = await conv('r1-slow-builder-i1');
    assert.deepEqual([back.activity, back.endedAt], ['working', null]);
    assert.match(
      (await ok(s.svc(['conv', 'log', 'r1-slow-builder-i1']))).stdout,
      /reconnected to host big: the agent kept running there and the conversation goes on/,
    );

    // The same ACP connection goes on: the agent finishes its turn's work and reports through the forwarded socket.
    onHost(`touch ${root}/go-slow`);
    const waited = await s.svc(['lane', 'wait', 'r1-slow-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'finished after the reconnect\n');
    await eventually(
      async () => onHost(`test -f ${root}/r1-slow/wip.txt && echo y`) === 'y',
      60_000,
      'wip.txt on the host',
    );
    assert.deepEqual(agentIn(`${root}/r1-slow`), agent, 'the agent that reported is the one started before the drop');

    // Reap: the host refuses the dirty tree before the stop door is used (a refused reap stops nothing);
    // with --park it stops the agent there, parks the tree and brings the patch home.
    const refusedReap = await s.svc(['lane', 'reap', 'r1-slow-builder-i1']);
    assert.equal(refusedReap.code, 1);
    assert.match(refusedReap.stderr, /wip\.txt/);
    assert.equal(onHost(`test -d ${root}/r1-slow && echo kept`), 'kept');
    assert.deepEqual(agentIn(`${root}/r1-slow`), agent, 'the refused reap left the agent running on the host');
    const reaped = await ok(s.svc(['lane', 'reap', 'r1-slow-builder-i1', '--park']));
    const agents = path.join(s.svcHome, 'agents', 'conv-r1-slow-builder-i1');
    const patches = fs.readdirSync(agents).filter((f) => /^parked-.*\.patch$/.test(f));
    assert.equal(patches.length, 1, fs.readdirSync(agents).join(', '));
    const patch = fs.readFileSync(path.join(agents, patches[0]), 'utf8');
    assert.match(patch, /wip\.txt/);
    assert.match(patch, /\+work in progress/);
    assert.match(
      reaped.stdout,
      new RegExp(
        `parked 1 path in ${path.join(agents, patches[0]).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n  restore with: ${sshRe()} '`,
      ),
    );
    assert.match(reaped.stdout, new RegExp(`removed worktree ${root}/r1-slow\\n`));
    assert.equal(onHost(`test -d ${root}/r1-slow || echo gone`), 'gone');
    assert.deepEqual(pidsIn(`${root}/r1-slow`), [], 'the stop door ended the agent on the host');
    // The same patch stays on the host too, byte for byte.
    assert.equal(onHost(`cat .svc-host/parked/conv-r1-slow-builder-i1/${patches[0]}`), patch.trimEnd());
    // Private to the user, on the host and here: svc's folders 0700, the parked patch 0600.
    assert.equal(
      onHost(
        `stat -c '%a %n' .svc-host .svc-host/parked .svc-host/parked/conv-r1-slow-builder-i1 .svc-host/parked/conv-r1-slow-builder-i1/${patches[0]}`,
      ),
      [
        '700 .svc-host',
        '700 .svc-host/parked',
        '700 .svc-host/parked/conv-r1-slow-builder-i1',
        `600 .svc-host/parked/conv-r1-slow-builder-i1/${patches[0]}`,
      ].join('\n'),
    );
    assert.deepEqual(
      [agents, path.join(agents, patches[0])].map((f) => (fs.statSync(f).mode & 0o777).toString(8)),
      ['700', '600'],
    );

    // The printed restore works as printed (this sshd is on its own port, with its own key and
    // known_hosts: without the host's ssh_options the command would reach port 22); lane show
    // prints the same command.
    const printed = /\n {2}restore with: (.*)\n/.exec(reaped.stdout)?.[1] ?? '';
    assert.match(
      (await ok(s.svc(['lane', 'show', 'r1-slow-builder-i1']))).stdout,
      new RegExp(`\n {6}restore with: ${printed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`),
    );
    const restored = spawnSync('sh', ['-c', printed], { encoding: 'utf8', env: s.env });
    assert.equal(restored.status, 0, `${printed}\n${restored.stderr}`);
    assert.equal(onHost(`cat ${root}/r1-slow/wip.txt`), 'work in progress');
    // Away again: the later tests expect only their own worktrees under the lanes root.
    onHost(
      `c=$(git -C ${root}/r1-slow rev-parse --path-format=absolute --git-common-dir) && rm -rf ${root}/r1-slow && git --git-dir="$c" worktree prune`,
    );
  });

  it('a report filed while the link is down waits for svc to reconnect (saying so on stderr) and arrives once', async () => {
    const { s, d, w, root, lane, conv, onHost, pidsIn, dropConnection } = get();
    const brief = writeBrief(w.briefs, 'linkdown.md', [
      { say: 'up' },
      {
        // What the report command says goes to the lane's own git dir (a sandboxed lane writes nowhere else).
        run: `g="$(git rev-parse --absolute-git-dir)"; while [ ! -f ../file-now ]; do sleep 0.2; done; ${buildAndReport('late.txt', 'late work', 'filed across the outage')} > "$g/report-out" 2> "$g/report-err"`,
        check: true,
      },
    ]);
    await startLane(w, { host: 'big', run: 'r1', key: 'linkdown', role: 'builder', model: 'm', brief });
    await eventually(async () => pidsIn(`${root}/r1-linkdown`).length >= 2, 60_000, 'the agent waiting on the host');
    await dropConnection();
    await eventually(
      async () => (await conv('r1-linkdown-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    onHost(`touch ${root}/file-now`);
    const said = (f: string) =>
      onHost(`cat "$(git -C ${root}/r1-linkdown rev-parse --absolute-git-dir)/${f}" 2>/dev/null || true`);
    // The agent's svc waits for the forwarded socket instead of failing with ECONNREFUSED.
    const waiting = await eventually(
      async () => said('report-err') || undefined,
      60_000,
      'svc on the host to say it waits',
    );
    assert.match(
      waiting,
      /^svc: the SSH link to the daemon's machine is down \((ECONNREFUSED|ENOENT) on \S+\); waiting up to 10 minutes for svc to reconnect it, then this command goes on$/,
    );
    await new Promise((r) => setTimeout(r, 3000));
    assert.ok(pidsIn(`${root}/r1-linkdown`).length >= 2, 'still waiting, not given up');
    await d.resume();
    const waited = await s.svc(['lane', 'wait', 'r1-linkdown-builder-i1', '--timeout', '180']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'filed across the outage\n');
    await eventually(async () => said('report-out') || undefined, 30_000, 'the report command to end');
    assert.equal(said('report-out'), 'Report 1 filed for r1-linkdown-builder-i1: done');
    assert.equal(said('report-err').split('\n').pop(), 'svc: the link to the daemon is back; going on');
    // Once: the lane holds the one report, and the conversation log shows one.
    const rec = await lane('r1-linkdown-builder-i1');
    assert.equal(rec.report?.seq, 1);
    assert.equal(rec.report?.headSha, onHost(`git -C ${root}/r1-linkdown rev-parse HEAD`));
    await ok(s.svc(['lane', 'reap', 'r1-linkdown-builder-i1']));
  });
}
