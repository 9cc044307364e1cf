// A whole gauntlet on another host, for real: sshd on 127.0.0.1 with a
// dedicated user whose home is "the other machine". Builders and a critic run there on
// the script harness, report through the forwarded socket, are waited for, listed with git
// facts read over the shared connection, lose their connection mid-run (the master is
// killed while sshd listens no more) and keep running there under svc's relay until svc
// reconnects by itself; one finishes its work and reports, one dies meanwhile and is
// reported as such; they are reaped with --park: the patch comes home beside the others.
// The daemon runs under strace, and never opens a path under the remote home itself.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { alive, discoveryOf } from '../helpers/daemonProcs';
import { buildAndReport, judgeAndReport, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, git } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { laneEnv } from '../helpers/laneEnv';
import { controlDirOf } from '../helpers/sshd';
import type { Sshd } from '../helpers/sshd';
import { remoteLaneWorld } from '../helpers/remoteLaneWorld';
import type { RemoteLaneWorld } from '../helpers/remoteLaneWorld';
import { pathArgs, startTracedDaemon } from '../helpers/tracedDaemon';

describe('lanes on another host over SSH: a whole gauntlet (real sshd)', function () {
  this.timeout(600_000);
  let s: Scratch;
  let d: Sshd;
  let w: LaneWorld;
  let traceLog: string;
  let root: string;
  let world: RemoteLaneWorld;

  before(async function () {
    world = await remoteLaneWorld('remote', {
      beforeWorld: async (scratch) => {
        traceLog = path.join(scratch.root, 'daemon.strace');
        await startTracedDaemon(scratch, traceLog);
      },
    });
    ({ s, d, w, root } = world);
  });
  after(async () => world?.dispose());

  const lanes = async (): Promise<LaneRecord[]> =>
    JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'r1', '--json']))).stdout) as LaneRecord[];
  const lane = async (name: string) => (await lanes()).find((l) => l.name === name)!;
  const onHost = (script: string) => d.asRemote(script).trim();
  /** The SSH destination as a regular expression. */
  const dest = () => d.destination.replace(/[.]/g, '\\.');
  // The printed restore runs ssh with the host entry's options (this sshd listens on its own port).
  const sshRe = () =>
    ['ssh', ...d.options.flatMap((o) => ['-o', o]), d.destination].join(' ').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  /** This daemon's run folders of agents on the host (~/.svc-host/agents/<daemon id>, relative to the remote home). */
  const agentsDir = () =>
    `.svc-host/agents/${crypto.createHash('sha256').update(s.svcHome).digest('hex').slice(0, 12)}`;

  // Lanes here run in the default sandbox on the host: what a lane leaves for the test goes to its worktree's own git dir.
  it('runs builder i1 on the host: worktree from its own clone of origin, report through the forwarded socket, wait', async () => {
    const b1 = writeBrief(w.briefs, 'b1.md', [
      {
        run: `${buildAndReport('feature.txt', 'first try')} && env | grep -c '^SVC_CALLER_TOKEN=' > "$(git rev-parse --absolute-git-dir)/caller-seen"`,
        check: true,
      },
    ]);
    const r = await ok(
      tryStartLane(w, { host: 'big', run: 'r1', key: 'feat', role: 'builder', model: 'm', brief: b1 }),
    );
    const b1Lane = await lane('r1-feat-builder-i1');
    assert.equal(r.stdout, `Lane r1/feat builder i1: conv ${b1Lane.id} (r1-feat-builder-i1) in ${root}/r1-feat\n`);
    const waited = await s.svc(['lane', 'wait', 'r1-feat-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'built it\n');
    const head = onHost(`git -C ${root}/r1-feat rev-parse HEAD`);
    assert.equal(git(w.repo, s.env, 'ls-remote', 'origin', 'refs/heads/r1/feat').split('\t')[0], head);
    assert.equal(
      onHost(`cat "$(git -C ${root}/r1-feat rev-parse --absolute-git-dir)/caller-seen"`),
      '1',
      'the credential reached the agent on the host',
    );
    const rec = await lane('r1-feat-builder-i1');
    assert.equal(rec.host, 'big');
    assert.equal(rec.cwd, `${root}/r1-feat`);
    assert.deepEqual(rec.git, { branch: 'r1/feat', headSha: head, ahead: 0, dirty: false });
    assert.equal(rec.report?.headSha, head);
    assert.equal(rec.report?.branch, 'r1/feat');
    // Not on this machine: nothing of the lane exists in the default lanes root here.
    assert.equal(fs.existsSync(`${w.repo}-lanes`), false);
  });

  it('runs the critic on the host at the reported head; its verdict file is read there', async () => {
    const c1 = writeBrief(w.briefs, 'c1.md', [{ run: judgeAndReport('NOT_YET', 2), check: true }]);
    await startLane(w, { host: 'big', for: 'feat', role: 'critic', run: 'r1', model: 'm', brief: c1 });
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-critic-i1', '--timeout', '120'])).code, 0);
    const critic = await lane('r1-feat-critic-i1');
    assert.deepEqual([critic.host, critic.verdict?.verdict, critic.verdict?.defects], ['big', 'NOT_YET', 2]);
    assert.equal(
      onHost(`git -C ${root}/r1-feat-critic-i1 rev-parse HEAD`),
      (await lane('r1-feat-builder-i1')).report?.headSha,
    );
  });

  it('runs builder i2 from i1’s branch (resolved on the host) and lists every lane with git facts in one call per host', async () => {
    const b2 = writeBrief(w.briefs, 'b2.md', [{ run: buildAndReport('feature.txt', 'second try'), check: true }]);
    await startLane(w, { host: 'big', run: 'r1', key: 'feat', role: 'builder', model: 'm', brief: b2, replace: true });
    assert.equal((await s.svc(['lane', 'wait', 'r1-feat-builder-i2', '--timeout', '120'])).code, 0);
    const i1 = (await lane('r1-feat-builder-i1')).report!.headSha!;
    assert.equal(onHost(`git -C ${root}/r1-feat-i2 merge-base --is-ancestor ${i1} HEAD && echo yes`), 'yes');
    const show = await ok(s.svc(['lane', 'show', '--run', 'r1', '--key', 'feat']));
    assert.equal(show.stdout.split('\n')[0], 'i1 built → critic c1: NOT_YET (2 defects) → i2 built');
    const all = await lanes();
    assert.deepEqual(
      all.map((l) => [l.name, l.host, l.git?.dirty]),
      [
        ['r1-feat-builder-i1', 'big', false],
        ['r1-feat-critic-i1', 'big', false],
        ['r1-feat-builder-i2', 'big', false],
      ],
    );
  });

  /** Pids of the processes on the host whose working directory is `dir` (the agent and what it runs). */
  const pidsIn = (dir: string) =>
    onHost(`for p in /proc/[0-9]*; do [ "$(readlink $p/cwd 2>/dev/null)" = ${dir} ] && echo \${p#/proc/}; done; true`)
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b);
  /** The script agent's pid among them (not the bubblewrap processes of its sandbox, whose command lines name it too). */
  const agentIn = (dir: string) =>
    pidsIn(dir).filter((p) => {
      const cmd = onHost(`tr '\\0' ' ' < /proc/${p}/cmdline 2>/dev/null || true`);
      return cmd.includes('scriptAgent.js') && !/^\S*bwrap /.test(cmd);
    });
  const conv = async (name: string) =>
    JSON.parse((await ok(s.svc(['conv', 'show', name, '--json']))).stdout) as ConversationInfo;

  /** The shared connection's master, killed outright (no goodbye) as a dropped network would, while sshd listens no more. */
  const dropConnection = async () => {
    const controlDir = controlDirOf(s.svcHome);
    const [control] = fs.readdirSync(controlDir);
    const check = spawnSync('ssh', ['-O', 'check', '-o', `ControlPath=${path.join(controlDir, control)}`, 'x'], {
      encoding: 'utf8',
    });
    const masterPid = Number(/pid=(\d+)/.exec(check.stderr)![1]);
    await d.pause();
    process.kill(masterPid, 'SIGKILL');
  };

  // Read on the host by the rules a local lane's file is read by (server/util/laneFileRead.ts),
  // refused in the same words: before, the host read any path the judge named, link or not.
  it("takes a verifier's verdict file on the host only from its own folders, never a FIFO", async () => {
    const idle = writeBrief(w.briefs, 'vidle.md', [{ say: 'judging' }]);
    const v = await startLane(w, { host: 'big', for: 'feat', role: 'verifier', run: 'r1', model: 'm', brief: idle });
    await eventually(async () => (await lane(v.name)).activity === 'idle');
    const report = (file: string) =>
      s.svc(['lane', 'report', '--stdin', '--verdict', 'PASS', '--verdict-file', file], {
        env: laneEnv(s, { id: v.id }),
        input: 'judged\n',
      });
    const refused = async (file: string, message: string) => {
      const r = await report(file);
      assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
      assert.equal(r.stderr, `${message}\n`);
    };
    const builderFile = `${root}/r1-feat-i2/feature.txt`;
    await refused(
      builderFile,
      `verdict file ${builderFile} is not inside this lane's own folders (${v.cwd}); write it there`,
    );
    onHost(`mkfifo ${v.cwd}/fifo.json && printf '%s' '{"defects": []}' > ${v.cwd}/verdict.json`);
    await refused(
      `${v.cwd}/fifo.json`,
      `verdict file ${v.cwd}/fifo.json is not a regular file (a link, folder, FIFO or device is never read)`,
    );
    await ok(report(`${v.cwd}/verdict.json`));
    assert.equal((await lane(v.name)).verdict?.verdict, 'PASS');
    onHost(`rm ${v.cwd}/fifo.json ${v.cwd}/verdict.json`);
  });

  it('a killed connection is not a lost lane: the agent keeps running on the host, the lane shows it, svc reconnects by itself and the lane completes', async () => {
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

  it('an agent that dies while the connection is down is reported as such, with its exit status', async () => {
    const dies = writeBrief(w.briefs, 'dies.md', [
      { say: 'up' },
      { run: 'while [ ! -f ../die-now ]; do sleep 0.2; done', check: true },
      { exit: 3 },
    ]);
    await startLane(w, { host: 'big', run: 'r1', key: 'dies', role: 'builder', model: 'm', brief: dies });
    await eventually(async () => pidsIn(`${root}/r1-dies`).length >= 2, 60_000, 'the agent waiting on the host');
    await dropConnection();
    await eventually(
      async () => (await conv('r1-dies-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    onHost(`touch ${root}/die-now`);
    await eventually(async () => pidsIn(`${root}/r1-dies`).length === 0, 30_000, 'the agent to exit on the host');
    assert.equal((await conv('r1-dies-builder-i1')).activity, 'working', 'svc cannot know yet');
    await d.resume();
    const ended = await eventually(
      async () => {
        const c = await conv('r1-dies-builder-i1');
        return c.endedAt !== null && c.exitStatus ? c : undefined;
      },
      90_000,
      'svc to reconnect and learn the agent ended',
    );
    assert.equal(ended.exitStatus, 'the agent on host big ended while the connection was lost (exit 3)');
    assert.deepEqual([ended.activity, ended.hostLost, ended.spawnError], ['stopped', null, null]);
    assert.match(
      (await ok(s.svc(['conv', 'log', 'r1-dies-builder-i1']))).stdout,
      /agent ended \(the agent on host big ended while the connection was lost \(exit 3\)\)/,
    );
    // Nothing of it is left running there: svc's relay went once the daemon had the exit.
    assert.equal(onHost(`ls -A ${agentsDir()} | grep -cx '${ended.id}' || true`), '0');
  });

  it('stop and reap of a lane whose connection is down: refused while the host cannot be asked, then done there over a new connection', async () => {
    const held = writeBrief(w.briefs, 'held.md', [{ say: 'holding' }, { run: 'sleep 600', check: true }]);
    await startLane(w, { host: 'big', run: 'r1', key: 'held', role: 'builder', model: 'm', brief: held });
    await eventually(async () => pidsIn(`${root}/r1-held`).length >= 2, 60_000, 'the agent at work on the host');
    const running = pidsIn(`${root}/r1-held`);
    await dropConnection();
    await eventually(
      async () => (await conv('r1-held-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    const unreachable = new RegExp(
      String.raw`^could not stop #\d+ \(r1-held-builder-i1\) on host big: host big \(${dest()}\) is unreachable \(.*\); .*; it keeps running there under svc's relay until svc reconnects and the stop reaches it\n$`,
    );
    const stop = await s.svc(['lane', 'stop', 'r1-held-builder-i1']);
    assert.equal(stop.code, 1);
    assert.match(stop.stderr, unreachable);
    // Reap asks the host what it would refuse before it stops anything: refused at once, queuing no stop.
    const reap = await s.svc(['lane', 'reap', 'r1-held-builder-i1']);
    assert.equal(reap.code, 1);
    assert.match(reap.stderr, new RegExp(String.raw`^host big \(${dest()}\) is unreachable \(`));
    assert.deepEqual(
      pidsIn(`${root}/r1-held`).filter((p) => running.includes(p)),
      running,
      'nothing was stopped on the host',
    );
    // Once the host answers: the stop door ends the group there, reap checks the host's processes and removes the worktree.
    await d.resume();
    const reaped = await ok(s.svc(['lane', 'reap', 'r1-held-builder-i1']));
    assert.match(reaped.stdout, new RegExp(`removed worktree ${root}/r1-held\\n`));
    assert.deepEqual(pidsIn(`${root}/r1-held`), []);
    assert.equal(onHost(`test -d ${root}/r1-held || echo gone`), 'gone');
    const c = await conv('r1-held-builder-i1');
    assert.deepEqual([c.activity, c.archived, c.hostLost], ['stopped', true, null]);
  });

  it('output past the relay’s bound while disconnected is lost, said exactly; the request waiting for an answer fails with a clear message, the conversation goes on', async () => {
    // A small bound, through the profile's env (it reaches the relay with the agent's environment).
    const config = YAML.parse(fs.readFileSync(path.join(s.svcHome, 'config.yaml'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      YAML.stringify({ ...config, harnesses: { script: { env: { SVC_RELAY_BUFFER_BYTES: '4000' } } } }),
    );
    const flood = writeBrief(w.briefs, 'flood.md', [
      { say: 'up' },
      {
        run: 'while [ ! -f ../flood ]; do sleep 0.2; done; seq 1 5000; touch "$(git rev-parse --absolute-git-dir)/flooded"',
        check: true,
      },
      { say: 'after the flood' },
      { sleep: 600_000 },
    ]);
    await startLane(w, { host: 'big', run: 'r1', key: 'flood', role: 'builder', model: 'm', brief: flood });
    await eventually(async () => pidsIn(`${root}/r1-flood`).length >= 2, 60_000, 'the agent at work on the host');
    await dropConnection();
    await eventually(
      async () => (await conv('r1-flood-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );
    onHost(`touch ${root}/flood`);
    await eventually(
      async () => onHost(`test -f "$(git -C ${root}/r1-flood rev-parse --absolute-git-dir)/flooded" && echo y`) === 'y',
      30_000,
      'the flood written while disconnected',
    );
    await d.resume();
    const log = await eventually(
      async () => {
        const text = (await ok(s.svc(['conv', 'log', 'r1-flood-builder-i1']))).stdout;
        return text.includes('\nafter the flood\n') ? text : undefined;
      },
      90_000,
      'svc to reconnect and the turn to go on',
    );
    assert.match(
      log,
      /\n\[svc\] svc's relay on host big kept at most 4000 bytes of the agent's output while the connection was lost; \d+ bytes in \d+ messages? \(session\/update ×\d+\) were lost (at|between) \d\d:\d\d:\d\d UTC( and \d\d:\d\d:\d\d UTC)?; requests waiting for an answer were failed and the turn is cancelled\n/,
    );
    assert.match(
      log,
      /\n\[turn failed: svc's relay on host big kept at most 4000 bytes .*; the answer to this request may have been among them\]\n\[svc\] turn cancelled\n/,
    );
    const c = await conv('r1-flood-builder-i1');
    assert.deepEqual([c.endedAt, c.hostLost], [null, null], 'the conversation goes on');
    await ok(s.svc(['lane', 'stop', 'r1-flood-builder-i1']));
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), YAML.stringify(config));
  });

  it("runs the script profile's scripts: file for a lane on the host: copied into its run folder there at each start", async () => {
    const steps = [
      { say: 'from the scripts file' },
      {
        run: `printf '%s' "$SVC_SCRIPT_FILE" > "$(git rev-parse --absolute-git-dir)/script-seen" && ${buildAndReport('scripted.txt', 'scripted', 'ran the scripts file on the host')}`,
        check: true,
      },
    ];
    fs.mkdirSync(path.join(s.svcHome, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(s.svcHome, 'scripts', 'remote.yaml'), YAML.stringify(steps));
    const config = YAML.parse(fs.readFileSync(path.join(s.svcHome, 'config.yaml'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(s.svcHome, 'config.yaml'),
      YAML.stringify({ ...config, harnesses: { script: { scripts: { 'r1-scripted-*': 'scripts/remote.yaml' } } } }),
    );
    // A brief with no svc-script block: the script agent falls back to the file of the first matching glob.
    const brief = path.join(w.briefs, 'plain.md');
    fs.writeFileSync(brief, 'Do what the scripts file says.\n');
    await startLane(w, { host: 'big', run: 'r1', key: 'scripted', role: 'builder', model: 'm', brief });
    const waited = await s.svc(['lane', 'wait', 'r1-scripted-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'ran the scripts file on the host\n');
    assert.match((await ok(s.svc(['conv', 'log', 'r1-scripted-builder-i1']))).stdout, /\nfrom the scripts file\n/);
    // It read a copy in its run folder on the host (not in the worktree), the same bytes as here.
    const id = (await lane('r1-scripted-builder-i1')).id;
    const seen = onHost(`cat "$(git -C ${root}/r1-scripted rev-parse --absolute-git-dir)/script-seen"`);
    assert.equal(seen, `${d.remoteHome}/${agentsDir()}/${id}/script`);
    assert.equal(
      onHost(`cat ${seen}`),
      fs.readFileSync(path.join(s.svcHome, 'scripts', 'remote.yaml'), 'utf8').trimEnd(),
    );
    assert.equal(onHost(`git -C ${root}/r1-scripted status --porcelain`), '');
  });

  it('reaps the rest on the host (clean trees: nothing to park) and archives them', async () => {
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
});
