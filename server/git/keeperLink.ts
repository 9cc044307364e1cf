// The daemon's end of the facts keeper's socket (factsKeeper.ts): one connection, requests
// answered in order by id. The keeper is started, detached, when none answers, and a keeper
// of another protocol is asked to quit first. Anything that goes wrong here (no keeper, a
// slow one, a closed socket) only costs the kept answers: every caller falls back to git.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { logger } from '../util/log';
import { KEEPER_PROTOCOL } from './factsKeeperProtocol';
import type { KeeperAnswer, KeeperRequest } from './factsKeeperProtocol';

const log = logger('git-facts');

/** How long a started keeper may take to listen. */
const START_MS = 3000;
/** Between two starts of a keeper that did not come up: do not fork one per list. */
const RETRY_START_MS = 30_000;

type Without<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending {
  resolve: (a: KeeperAnswer) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class KeeperLink {
  private socket: Promise<net.Socket> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private lastStart = 0;
  private closed = false;

  constructor(
    private readonly socketPath: string,
    private readonly home: string,
    private readonly timeoutMs: number,
  ) {}

  async request(req: Without<KeeperRequest>): Promise<KeeperAnswer> {
    const socket = await this.connected();
    return this.send(socket, req);
  }

  close(): void {
    this.closed = true;
    void this.socket?.then((s) => s.destroy()).catch(() => undefined);
    this.socket = undefined;
  }

  private connected(): Promise<net.Socket> {
    if (this.closed) return Promise.reject(new Error('the keeper link is closed'));
    this.socket ??= this.open().catch((e: unknown) => {
      this.socket = undefined;
      throw e;
    });
    return this.socket;
  }

  private async open(): Promise<net.Socket> {
    let s = await connect(this.socketPath).catch(() => undefined);
    if (s) {
      this.attach(s);
      const hello = await this.send(s, { op: 'hello' }).catch(() => undefined);
      if (hello && 'protocol' in hello && hello.protocol === KEEPER_PROTOCOL) return s;
      log.info(`facts keeper at ${this.socketPath} speaks another protocol: asked to quit`);
      await this.send(s, { op: 'quit' }).catch(() => undefined);
      s.destroy();
    }
    if (Date.now() - this.lastStart < RETRY_START_MS) throw new Error('the facts keeper did not start');
    this.lastStart = Date.now();
    this.start();
    for (const until = Date.now() + START_MS; Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 50));
      s = await connect(this.socketPath).catch(() => undefined);
      if (s) {
        this.attach(s);
        return s;
      }
    }
    throw new Error(`the facts keeper did not listen on ${this.socketPath} within ${START_MS} ms`);
  }

  /** Starts a keeper of this build, detached: it outlives the daemon. */
  private start(): void {
    const bundled = path.join(__dirname, 'factsKeeper.js');
    // From source (the tests, under tsx) the keeper runs through tsx's loader.
    const args = fs.existsSync(bundled)
      ? [bundled]
      : ['--require', 'tsx/cjs', path.join(__dirname, 'factsKeeperMain.ts')];
    const child = spawn(process.execPath, [...args, this.socketPath, this.home], {
      cwd: fs.existsSync(bundled) ? path.dirname(bundled) : path.join(__dirname, '..', '..'),
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', (e) => log.warn(`facts keeper did not start: ${e.message}`));
    child.unref();
    log.info(`facts keeper started (pid ${child.pid ?? '?'}) at ${this.socketPath}`);
  }

  private attach(s: net.Socket): void {
    let buffered = '';
    s.setEncoding('utf8');
    s.unref();
    s.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let a: KeeperAnswer;
        try {
          a = JSON.parse(line) as KeeperAnswer;
        } catch {
          continue;
        }
        const p = this.pending.get(a.id);
        if (!p) continue;
        this.pending.delete(a.id);
        clearTimeout(p.timer);
        p.resolve(a);
      }
    });
    const gone = () => {
      if (this.socket) void this.socket.then((x) => x === s && (this.socket = undefined)).catch(() => undefined);
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        clearTimeout(p.timer);
        p.reject(new Error('the facts keeper closed its socket'));
      }
    };
    s.on('close', gone);
    s.on('error', () => s.destroy());
  }

  private send(s: net.Socket, req: Without<KeeperRequest>): Promise<KeeperAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the facts keeper did not answer ${req.op} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      s.write(`${JSON.stringify({ ...req, id })}\n`);
    });
  }
}

function connect(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath);
    s.once('connect', () => {
      s.removeListener('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}
