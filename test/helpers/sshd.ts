// A real "remote host" for tests: OpenSSH's sshd on 127.0.0.1 at a free port, with a
// generated host key, serving a dedicated local user whose home stands for the other
// machine. Self-contained: it creates the user when missing (CI runs as root: useradd),
// generates the keys in the scratch folder, and starts and stops its own sshd.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { controlDirFor } from '../../server/hosts/sshTransport';
import { homePaths } from '../../shared/svcHome';
import { REPO, sleep } from './scratch';

/**
 * The "remote" user: one per checkout (its path hashed), so test runs of other checkouts
 * on this machine (other worktrees, CI) never share its home, where a run clears its lanes
 * root and svc keeps its files of the host.
 */
export const REMOTE_USER =
  process.env.SVC_TEST_REMOTE_USER ?? `svcr-${crypto.createHash('sha256').update(REPO).digest('hex').slice(0, 8)}`;
const SSHD = '/usr/sbin/sshd';

export interface Sshd {
  port: number;
  user: string;
  /** The remote user's home: "the other machine". */
  remoteHome: string;
  /**
   * A folder this machine's tests and the remote user both reach, for what both sides use
   * (the test's origin): the remote user cannot read the checkout where a parent folder is
   * private (a clone under root's 0700 home). Beside the remote home, not in it: the
   * daemon never touches the "other machine's" files directly, and a test checks that.
   */
  shared: string;
  /** Client-side files (outside the remote home). */
  identity: string;
  knownHosts: string;
  /** A second port of the same sshd where the login PATH holds no node (<home>/bin-without-node). */
  noNodePort: number;
  /** A third port where the login PATH holds everything of this machine's but bubblewrap (<home>/bin-without-bwrap). */
  noBwrapPort: number;
  /** `-o` options a host entry needs to reach this sshd. */
  options: string[];
  destination: string;
  /** Runs a command on the "host" as the remote user (test set-up only; never what the daemon does). */
  asRemote(script: string): string;
  /** Stops listening (sessions already open stay): the host is unreachable until resume(). */
  pause(): Promise<void>;
  /** Listens again on the same ports with the same keys. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function sh(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

export function sshdAvailable(): string | null {
  if (!fs.existsSync(SSHD)) return `${SSHD} is missing: apt-get install openssh-server`;
  if (process.getuid?.() !== 0)
    return 'the remote-host tests create a user and start sshd: they need root (CI runs as root)';
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function ensureUser(user: string): string {
  const found = spawnSync('getent', ['passwd', user], { encoding: 'utf8' });
  if (found.status !== 0) sh('useradd', ['--create-home', '--shell', '/bin/sh', user]);
  // A locked password ("!") makes sshd refuse the account without PAM; "*" only forbids password logins.
  sh('usermod', ['-p', '*', user]);
  return spawnSync('getent', ['passwd', user], { encoding: 'utf8' }).stdout.split(':')[5];
}

export async function startSshd(dir: string): Promise<Sshd> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  const remoteHome = ensureUser(REMOTE_USER);
  const hostKey = path.join(dir, 'ssh_host_ed25519_key');
  const identity = path.join(dir, 'id_ed25519');
  sh('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'svc-test-host', '-f', hostKey]);
  sh('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'svc-test-client', '-f', identity]);
  const port = await freePort();
  // sshd reads AuthorizedKeysFile as the remote user, who may not pass the folders above
  // the checkout: the file lives in that user's home, one folder per sshd (by its port).
  const keysDir = path.join(remoteHome, `.svc-test-sshd-${port}`);
  const shared = path.join(path.dirname(remoteHome), `${REMOTE_USER}-shared-${port}`);
  for (const d of [keysDir, shared]) {
    fs.rmSync(d, { recursive: true, force: true });
    fs.mkdirSync(d, { mode: 0o755 });
  }
  fs.chmodSync(shared, 0o777);
  const authorized = path.join(keysDir, 'authorized_keys');
  fs.writeFileSync(authorized, fs.readFileSync(`${identity}.pub`), { mode: 0o644 });
  const noNodePort = await freePort();
  const noNodeBin = `${remoteHome}/bin-without-node`;
  const noBwrapPort = await freePort();
  const noBwrapBin = `${remoteHome}/bin-without-bwrap`;
  const knownHosts = path.join(dir, 'known_hosts');
  const pub = fs.readFileSync(`${hostKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
  fs.writeFileSync(
    knownHosts,
    `[127.0.0.1]:${port} ${pub}\n[127.0.0.1]:${noNodePort} ${pub}\n[127.0.0.1]:${noBwrapPort} ${pub}\n`,
  );
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      `Port ${noNodePort}`,
      `Port ${noBwrapPort}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${authorized}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'UsePAM no',
      'StrictModes no',
      `AllowUsers ${REMOTE_USER}`,
      'AllowStreamLocalForwarding yes',
      'StreamLocalBindUnlink yes',
      'MaxSessions 64',
      'MaxStartups 64',
      'LogLevel ERROR',
      // The second port is a host without node: its login PATH has git and a few tools only.
      `Match LocalPort ${noNodePort}`,
      `  SetEnv PATH=${noNodeBin}`,
      // The third is a host without bubblewrap: its lanes cannot be sandboxed.
      `Match LocalPort ${noBwrapPort}`,
      `  SetEnv PATH=${noBwrapBin}`,
      '',
    ].join('\n'),
  );
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  sh('runuser', [
    '-u',
    REMOTE_USER,
    '--',
    'sh',
    '-c',
    [
      `rm -rf ${noNodeBin} && mkdir -p ${noNodeBin} && for t in git df awk dirname; do ln -s "$(command -v $t)" ${noNodeBin}/$t; done`,
      `rm -rf ${noBwrapBin} && mkdir -p ${noBwrapBin} && for t in /usr/local/bin/* /usr/bin/* ${path.dirname(process.execPath)}/*; do [ "\${t##*/}" = bwrap ] || ln -sf "$t" ${noBwrapBin}/; done`,
    ].join(' && '),
  ]);
  const log = fs.openSync(path.join(dir, 'sshd.log'), 'a');
  const listen = async (): Promise<ChildProcess> => {
    const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', log, log] });
    for (let i = 0; ; i++) {
      if (child.exitCode !== null)
        throw new Error(`sshd exited ${child.exitCode}: ${fs.readFileSync(path.join(dir, 'sshd.log'), 'utf8')}`);
      const up = await new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      });
      if (up) return child;
      if (i > 200) throw new Error('sshd did not listen within 10 s');
      await sleep(50);
    }
  };
  const halt = async (c: ChildProcess) => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGTERM');
    await new Promise((r) => c.once('exit', r));
  };
  let child = await listen();
  return {
    port,
    noNodePort,
    noBwrapPort,
    user: REMOTE_USER,
    remoteHome,
    shared,
    identity,
    knownHosts,
    options: [
      `Port=${port}`,
      `IdentityFile=${identity}`,
      'IdentitiesOnly=yes',
      `UserKnownHostsFile=${knownHosts}`,
      'GlobalKnownHostsFile=/dev/null',
    ],
    destination: `${REMOTE_USER}@127.0.0.1`,
    asRemote: (script) => sh('runuser', ['-u', REMOTE_USER, '--', 'sh', '-c', `cd && ${script}`]),
    pause: () => halt(child),
    async resume() {
      child = await listen();
    },
    async stop() {
      await halt(child);
      fs.closeSync(log);
      for (const d of [keysDir, shared]) fs.rmSync(d, { recursive: true, force: true });
    },
  };
}

/** The private folder of the daemon's shared SSH connections for this SVC_HOME (as the daemon picks it). */
export function controlDirOf(svcHome: string): string {
  return controlDirFor(svcHome, homePaths(svcHome).socket);
}
