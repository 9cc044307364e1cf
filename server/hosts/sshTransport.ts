// The one way svc reaches a host: the OpenSSH client, with connection sharing. Every
// command multiplexes over one master connection per host (ControlMaster), whose socket
// lives in a private folder (0700) under SVC_HOME, so a lane list of ten remote lanes is
// one TCP connection and no new login. svc installs nothing resident on the host (but an
// agent's relay for as long as the agent runs, helper/relay.ts): each
// operation is one `ssh host <command>`; the master is OpenSSH's own.
import { spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { controlDirUnsafeError, sshMissingError } from './hostRefusals';
import { sshError } from './sshErrors';

export interface HostSpec {
  name: string;
  ssh: string;
  lanesRoot: string;
  options: string[];
}

export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes (a patch fetched home). */
  raw: Buffer;
}

/** ssh's own exit code for its failures (the remote command's code passes through otherwise). */
export const SSH_FAILED = 255;

// Unix socket paths hold ~104 bytes, and ssh adds a 17-byte temporary suffix while it binds.
const SOCKET_ROOM = 100 - 17;

/**
 * The private folder holding the control sockets: SVC_HOME/ssh; for a long SVC_HOME beside
 * the daemon's socket, else in $XDG_RUNTIME_DIR, else in the temporary folder (named by
 * user and home, made 0700 and checked to be this user's own by ensurePrivateDir).
 */
export function controlDirFor(home: string, daemonSocket: string): string {
  const fits = (dir: string) => Buffer.byteLength(path.join(dir, 'x'.repeat(16))) <= SOCKET_ROOM;
  const id = crypto.createHash('sha256').update(home).digest('hex').slice(0, 8);
  const runtime = process.env.XDG_RUNTIME_DIR;
  const uid = process.getuid?.() ?? 0;
  const candidates = [
    path.join(home, 'ssh'),
    path.join(path.dirname(daemonSocket), `ssh-${id}`),
    ...(runtime && path.isAbsolute(runtime) ? [path.join(runtime, `svc-ssh-${id}`)] : []),
  ];
  return candidates.find(fits) ?? path.join(os.tmpdir(), `svc-${uid}-ssh-${id}`);
}

/** Creates the folder 0700 when absent; refuses one that is not a private plain folder of this user. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.() ?? 0;
  if (!st.isDirectory() || st.isSymbolicLink() || st.uid !== uid || (st.mode & 0o077) !== 0) {
    throw controlDirUnsafeError(dir);
  }
}

export class SshHost {
  constructor(
    readonly spec: HostSpec,
    private readonly controlDir: string,
  ) {}

  /** One control socket per host entry: a changed destination or options is another connection. */
  get controlPath(): string {
    const id = crypto
      .createHash('sha256')
      .update(JSON.stringify([this.spec.name, this.spec.ssh, this.spec.options]))
      .digest('hex')
      .slice(0, 16);
    return path.join(this.controlDir, id);
  }

  /** Options first: ssh keeps the first value it sees, so svc's win over ~/.ssh/config. */
  args(mux: 'auto' | 'no', extra: string[] = []): string[] {
    return [
      '-T',
      '-o',
      'BatchMode=yes',
      '-o',
      `ControlMaster=${mux}`,
      '-o',
      `ControlPath=${this.controlPath}`,
      '-o',
      'ControlPersist=300',
      '-o',
      'ConnectTimeout=15',
      '-o',
      'ServerAliveInterval=15',
      '-o',
      'ServerAliveCountMax=4',
      ...this.spec.options.flatMap((o) => ['-o', o]),
      ...extra,
      '--',
      this.spec.ssh,
    ];
  }

  /** Runs `script` in the remote user's shell; resolves with its exit code and output (no throw on a non-zero code). */
  exec(script: string, opts: { stdin?: string | Buffer; timeoutMs?: number } = {}): Promise<ExecResult> {
    ensurePrivateDir(this.controlDir);
    return new Promise((resolve, reject) => {
      const child = spawn('ssh', [...this.args('auto'), script], { stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      child.stdin.on('error', () => undefined);
      const timer = setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs ?? 120_000);
      child.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(e.code === 'ENOENT' ? sshMissingError() : e);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const raw = Buffer.concat(out);
        resolve({ code, stdout: raw.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), raw });
      });
      child.stdin.end(opts.stdin ?? '');
    });
  }

  /** Like exec, but ssh's own failure (exit 255) is the classified refusal. */
  async run(script: string, opts: { stdin?: string | Buffer; timeoutMs?: number } = {}): Promise<ExecResult> {
    const r = await this.exec(script, opts);
    if (r.code === SSH_FAILED || r.code === null)
      throw sshError(this.spec, r.stderr || (r.code === null ? 'timed out' : ''));
    return r;
  }

  /** The pid of the shared connection's master, or null when none is open. */
  async masterPid(): Promise<number | null> {
    if (!fs.existsSync(this.controlPath)) return null;
    const r = await control(['-O', 'check', ...this.controlArgs()]);
    const m = /\(pid=(\d+)\)/.exec(r.stderr + r.stdout);
    return r.code === 0 && m ? Number(m[1]) : null;
  }

  /** Asks the master to forward `remoteSocket` on the host to `localSocket` here (StreamLocalForward). */
  async forward(remoteSocket: string, localSocket: string): Promise<void> {
    const r = await control(['-O', 'forward', '-R', `${remoteSocket}:${localSocket}`, ...this.controlArgs()]);
    if (r.code !== 0) throw sshError(this.spec, r.stderr || 'the forward of the svc socket was refused');
  }

  /** The command line of a process speaking over the shared connection (an agent's channel); it never opens a connection of its own. */
  commandOver(script: string): { command: string; args: string[] } {
    ensurePrivateDir(this.controlDir);
    return { command: 'ssh', args: [...this.args('no'), script] };
  }

  /** Closes the shared connection (daemon stop). */
  async close(): Promise<void> {
    if (fs.existsSync(this.controlPath)) await control(['-O', 'exit', ...this.controlArgs()]);
  }

  private controlArgs(): string[] {
    return [
      '-o',
      `ControlPath=${this.controlPath}`,
      ...this.spec.options.flatMap((o) => ['-o', o]),
      '--',
      this.spec.ssh,
    ];
  }
}

function control(args: string[]): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (e) => resolve({ code: SSH_FAILED, stdout, stderr: String(e), raw: Buffer.alloc(0) }));
    child.on('close', (code) => resolve({ code, stdout, stderr, raw: Buffer.from(stdout) }));
  });
}
