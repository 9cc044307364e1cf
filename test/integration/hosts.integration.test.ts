// Hosts: config.yaml `hosts:` validated with refusals that say what and
// why, `svc host list`, and `svc host check` against a real sshd on 127.0.0.1 (a dedicated
// user's home is the other machine): reachable, git, node, the lanes root, disk, and the
// failures a person meets: unknown host key, unreachable, no node, lanes root missing.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { laneWorld, ok, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { controlDirOf, sshdAvailable, startSshd } from '../helpers/sshd';
import type { Sshd } from '../helpers/sshd';

describe('hosts: config, svc host list, svc host check (real sshd)', function () {
  this.timeout(120_000);
  let s: Scratch;
  let d: Sshd;
  let w: LaneWorld;
  const root = `lanes-hosts-${process.pid}`;

  before(async function () {
    const why = sshdAvailable();
    if (why) throw new Error(why);
    s = makeScratch('hosts');
    d = await startSshd(path.join(s.root, 'sshd'));
    d.asRemote(`rm -rf ${root} && mkdir -p ${root}`);
    w = await laneWorld(s);
  });
  after(async () => {
    await s?.dispose();
    d?.asRemote(`rm -rf ${root}`);
    await d?.stop();
  });

  const writeHosts = (hosts: Record<string, unknown>) =>
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), YAML.stringify({ hosts }));
  const big = () => ({ ssh: d.destination, lanes_root: `~/${root}`, ssh_options: d.options });
  /** The SSH destination as a regular expression. */
  const dest = () => d.destination.replace(/[.]/g, '\\.');
  // ssh as a printed fix runs it: with the host entry's options, so it works as printed.
  const sshLine = (options = d.options) => ['ssh', ...options.flatMap((o) => ['-o', o]), d.destination].join(' ');
  const sshRe = (options = d.options) => sshLine(options).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  it('lists no hosts, then the configured ones', async () => {
    assert.equal(
      (await ok(s.svc(['host', 'list']))).stdout,
      'no hosts (add one under hosts: in config.yaml: hosts.<name>.ssh and hosts.<name>.lanes_root)\n',
    );
    writeHosts({ big: big() });
    assert.equal((await ok(s.svc(['host', 'list']))).stdout, `big\t${d.destination}\t~/${root}\tnot connected\n`);
  });

  it('refuses host entries that are not what they must be, naming the file and the field', async () => {
    const cfg = path.join(s.svcHome, 'config.yaml');
    const cases: [Record<string, unknown>, string][] = [
      [
        { ssh: '-oProxyCommand=touch /tmp/pwned', lanes_root: '~/l' },
        'hosts.evil.ssh: ssh must be a destination ([user@]host or an alias from ~/.ssh/config), not an option',
      ],
      [
        { ssh: 'me@host; rm -rf ~', lanes_root: '~/l' },
        'hosts.evil.ssh: ssh must be a destination such as user@host, an ~/.ssh/config alias or ssh://user@host:port (no spaces or shell characters)',
      ],
      [
        { ssh: 'me@host', lanes_root: 'lanes' },
        "hosts.evil.lanes_root: lanes_root must be an absolute path on the host or start with ~/ (the SSH user's home)",
      ],
      [
        { ssh: 'me@host', lanes_root: '/tmp/lanes' },
        'hosts.evil.lanes_root: lanes_root must not be under /tmp: lanes must outlive reboots',
      ],
      [
        { ssh: 'me@host', lanes_root: '~/' },
        'hosts.evil.lanes_root: lanes_root must be a folder below the home, not the home or / itself',
      ],
      [
        { ssh: 'me@host', lanes_root: '~/l', ssh_options: ['ControlPath=/tmp/x'] },
        'hosts.evil.ssh_options.0: ssh option ControlPath is set by svc itself (connection sharing, batch mode); remove it',
      ],
      [
        { ssh: 'me@host', lanes_root: '~/l', ssh_options: ['-F /etc/passwd'] },
        'hosts.evil.ssh_options.0: an ssh option is Key=Value, as ssh -o takes it',
      ],
    ];
    for (const [entry, message] of cases) {
      writeHosts({ evil: entry });
      const r = await s.svc(['host', 'list']);
      assert.equal(r.code, 1, JSON.stringify(entry));
      assert.equal(r.stderr, `${cfg}: ${message}\n`);
    }
    writeHosts({ big: big() });
  });

  it('sets a role default host only to a configured host', async () => {
    const r = await s.svc(['config', 'set', 'projects.proj.gauntlet.roles.builder.host', 'nowhere']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `cannot set projects.proj.gauntlet.roles.builder.host to 'nowhere': no host 'nowhere' under hosts: in ${path.join(s.svcHome, 'config.yaml').replace(s.home, '~')} (configured: big); ${path.join(s.svcHome, 'projects.yaml').replace(s.home, '~')} is unchanged\n`,
    );
    await ok(s.svc(['config', 'set', 'projects.proj.gauntlet.roles.builder.host', 'big']));
    assert.equal(
      (await ok(s.svc(['host', 'list']))).stdout,
      `big\t${d.destination}\t~/${root}\tnot connected\tdefault for proj/builder\n`,
    );
  });

  it('checks a host: reachable, git, node, the script harness, the lanes root, disk', async () => {
    const r = await s.svc(['host', 'check', 'big', '--harness', 'script']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `host big (${d.destination})`);
    assert.equal(lines[1], `  ok    reachable   logged in over ssh (home ${d.remoteHome})`);
    assert.match(lines[2], /^ {2}ok {4}git {9}git version \d+\.\d+/);
    assert.match(lines[3], /^ {2}ok {4}node {8}Node v\d+\.\d+\.\d+ \(\/\S+\/node\)$/);
    assert.equal(lines[4], "  ok    harness     script: shipped by svc, runs on the host's node");
    assert.equal(lines[5], `  ok    lanes root  ${d.remoteHome}/${root}`);
    assert.match(lines[6], /^ {2}(ok {4}|note {2})disk {8}\d+\.\d GB free under the lanes root/);
    assert.equal(lines.at(-1), 'ready for lanes');
    // The check left a shared connection (ControlMaster) open, in a private folder of this user (under SVC_HOME unless that is too long).
    assert.equal(
      (await ok(s.svc(['host', 'list']))).stdout,
      `big\t${d.destination}\t~/${root}\tconnected\tdefault for proj/builder\n`,
    );
    const controlDir = controlDirOf(s.svcHome);
    assert.equal(fs.statSync(controlDir).mode & 0o777, 0o700);
    assert.equal(fs.readdirSync(controlDir).length, 1);
  });

  it('says what is wrong: lanes root missing, no node, unknown host key, unreachable', async () => {
    const emptyKnown = path.join(s.root, 'empty_known_hosts');
    fs.writeFileSync(emptyKnown, '');
    const unknownKey = d.options.map((o) =>
      o.startsWith('UserKnownHostsFile=') ? `UserKnownHostsFile=${emptyKnown}` : o,
    );
    const closedPort = d.options.map((o) => (o.startsWith('Port=') ? 'Port=1' : o));
    writeHosts({
      big: big(),
      noroot: { ...big(), lanes_root: '~/no-such-lanes' },
      nonode: { ...big(), ssh_options: d.options.map((o) => (o.startsWith('Port=') ? `Port=${d.noNodePort}` : o)) },
      stranger: { ...big(), ssh_options: unknownKey },
      down: { ...big(), ssh_options: closedPort },
    });

    const noroot = await s.svc(['host', 'check', 'noroot']);
    assert.equal(noroot.code, 1);
    assert.match(
      noroot.stdout,
      new RegExp(
        String.raw`^ {2}FAIL {2}lanes root {2}~\/no-such-lanes does not exist on the host\n {20}fix: ${sshRe()} 'mkdir -p ~\/no-such-lanes'\n`,
        'm',
      ),
    );
    assert.match(noroot.stdout, /\n1 problem\n$/);

    const nonode = await s.svc(['host', 'check', 'nonode', '--harness', 'script']);
    assert.equal(nonode.code, 1, nonode.stdout);
    assert.match(
      nonode.stdout,
      /^ {2}FAIL {2}node {8}no node on the login PATH of the host; svc copies its shim there and it runs on node \(Node 20 or newer\)$/m,
    );
    assert.match(nonode.stdout, /^ {2}FAIL {2}harness {5}script: shipped by svc, runs on the host's node$/m);

    const stranger = await s.svc(['host', 'check', 'stranger']);
    assert.equal(stranger.code, 1);
    const lines = stranger.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4, stranger.stdout);
    assert.match(
      lines[1],
      new RegExp(
        String.raw`^ {2}FAIL {2}reachable {3}host stranger \(${dest()}\): its host key is not known here \(.*Host key verification failed\.\); svc never accepts a host key on its own: connect once with ${sshRe(unknownKey)} true, check the fingerprint, and accept it into known_hosts$`,
      ),
    );
    assert.equal(lines[3], '1 problem');

    const down = await s.svc(['host', 'check', 'down']);
    assert.equal(down.code, 1);
    assert.match(
      down.stdout,
      new RegExp(
        String.raw`^ {2}FAIL {2}reachable {3}host down \(${dest()}\) is unreachable \(.*Connection refused.*\); check the destination, the network and that sshd runs there \(${sshRe(closedPort)} true\)$`,
        'm',
      ),
    );

    // The same refusals stop a launch there before anything is recorded.
    const launch = (host: string) =>
      tryStartLane(s, {
        parent: w.rootId,
        harness: 'script',
        host,
        run: 'rh',
        key: host,
        role: 'builder',
        model: 'm',
        prompt: 'hi',
      });
    const r1 = await launch('noroot');
    assert.equal(r1.code, 1);
    assert.equal(
      r1.stderr,
      `the lanes root ${d.remoteHome}/no-such-lanes does not exist on host noroot; create it (${sshLine()} 'mkdir -p ${d.remoteHome}/no-such-lanes') or fix hosts.noroot.lanes_root in config.yaml\n`,
    );
    // The printed fix works as printed (this sshd listens on its own port, with its own key).
    const fix = /\n {20}fix: (.*)\n/.exec(noroot.stdout)?.[1] ?? '';
    const fixed = spawnSync('sh', ['-c', fix], { encoding: 'utf8', env: s.env });
    assert.equal(fixed.status, 0, `${fix}\n${fixed.stderr}`);
    assert.equal(d.asRemote('test -d ~/no-such-lanes && echo made').trim(), 'made');
    d.asRemote('rmdir ~/no-such-lanes');
    const r2 = await launch('nonode');
    assert.equal(r2.code, 1);
    assert.equal(
      r2.stderr,
      'host nonode has no node on its login PATH; svc runs its shim and helper there on Node 20 or newer: install it (svc host check nonode says what else is missing)\n',
    );
    const r3 = await launch('stranger');
    assert.equal(r3.code, 1);
    assert.match(
      r3.stderr,
      new RegExp(
        String.raw`^host stranger \(${dest()}\): its host key is not known here \(.*\); svc never accepts a host key on its own: connect once with ${sshRe(unknownKey)} true, check the fingerprint, and accept it into known_hosts\n$`,
      ),
    );
    const r4 = await launch('down');
    assert.equal(r4.code, 1);
    assert.match(r4.stderr, new RegExp(String.raw`^host down \(${dest()}\) is unreachable \(`));
    const r5 = await launch('nowhere');
    assert.equal(r5.code, 1);
    assert.equal(
      r5.stderr,
      "no host 'nowhere' under hosts: in config.yaml (configured: big, noroot, nonode, stranger, down)\n",
    );
    assert.equal((await ok(s.svc(['lane', 'list', '--run', 'rh', '--json']))).stdout, '[]\n', 'no lane was recorded');

    const unknown = await s.svc(['host', 'check', 'nowhere']);
    assert.equal(unknown.code, 1);
    assert.equal(
      unknown.stderr,
      "no host 'nowhere' under hosts: in config.yaml (configured: big, noroot, nonode, stranger, down)\n",
    );
  });
});
