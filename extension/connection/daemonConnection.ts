// The window's connection to the daemon: vscode-languageclient over the daemon socket
// (a ServerOptions function hands it the socket streams). Starts the daemon with the
// user's node on activation or when asked; after a drop it only re-attaches, with
// backoff, so a dying daemon is never restarted in a loop. Requests fail with DaemonDown
// (saying why) while there is no connection, and with DaemonRefusal on a daemon error.
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, LanguageClient, RevealOutputChannelOn } from 'vscode-languageclient/node';
import * as fs from 'node:fs';
import type * as net from 'node:net';
import * as os from 'node:os';
import type { z } from 'zod';
import { connectionLostMessage } from '../../shared/client/connectionLost';
import { askToStop, readRpcError } from '../../shared/client/daemonRefusal';
import { ensureDaemon } from '../../shared/client/ensureDaemon';
import { errorMessage } from '../../shared/errors';
import { chooseNativeBinding } from '../../shared/node/nativeBinding';
import { SUPPORTED_NODE } from '../../shared/node/supportedNode';
import { changed, daemonStatus } from '../../shared/protocol/daemon';
import type { DaemonInfo } from '../../shared/protocol/daemon';
import type { NotificationDef, RequestDef } from '../../shared/protocol/rpc';
import { svcHomeFrom } from '../../shared/svcHome';
import { SVC_BUILD } from '../../shared/version';
import { logger, outputChannel } from '../log';
import { attachExisting } from './attach';
import { backoffDelay } from './backoff';
import { DaemonDown } from './daemonErrors';
import { chooseNode, editorRuntime, isExecutableFile, listDir, lookupNode, probeUntilSupported } from './findNode';

const log = logger('connection');

export type ConnectionState =
  | { kind: 'connecting' }
  | { kind: 'connected'; info: DaemonInfo }
  | { kind: 'down'; why: string; since: number }
  | {
      kind: 'noNode';
      problem: string;
      fix: string;
      /** A Node was found, but this package has no SQLite module for it or this platform. */ module?: boolean;
    };

export interface ConnectionOptions {
  /** The extension's dist/ folder (daemon.js lives there). */
  distDir: string;
  env: NodeJS.ProcessEnv;
  nodeSetting(): string | undefined;
}

type ChangedParams = z.output<typeof changed.params>;
const CONNECT_WAIT_MS = 15_000;

export class DaemonConnection implements vscode.Disposable {
  private client?: LanguageClient;
  private generation = 0;
  private attempt = 0;
  private timer?: NodeJS.Timeout;
  private disposed = false;
  private current: ConnectionState = { kind: 'connecting' };
  private node?: string;
  private readonly handlers = new Map<string, Set<(params: unknown) => void>>();
  private readonly stateEmitter = new vscode.EventEmitter<ConnectionState>();
  private readonly changedEmitter = new vscode.EventEmitter<ChangedParams>();
  /** Fires on every state change (connected, down, …). */
  readonly onDidChangeState = this.stateEmitter.event;
  /** The daemon's `svc/changed` notifications: views re-read what they show. */
  readonly onDidChange = this.changedEmitter.event;

  constructor(private readonly opts: ConnectionOptions) {
    this.onNotification(changed, (p) => this.changedEmitter.fire(p));
  }

  get state(): ConnectionState {
    return this.current;
  }

  /** The supported Node the daemon was last started with (the one the `svc` launcher runs); undefined until one is found. */
  get nodePath(): string | undefined {
    return this.node;
  }

  get home(): string {
    return svcHomeFrom(this.opts.env);
  }

  /** Starts the daemon if needed (replacing one of another build) and connects. */
  async start(): Promise<void> {
    const gen = this.reset();
    this.setState({ kind: 'connecting' });
    const found = lookupNode({
      setting: this.opts.nodeSetting(),
      pathEnv: this.opts.env.PATH,
      platform: process.platform,
      home: this.opts.env.HOME ?? os.homedir(),
      env: this.opts.env,
      ownRuntime: editorRuntime(),
      isExecutable: isExecutableFile,
      listDir,
    });
    const node = found.ok ? chooseNode(await probeUntilSupported(found.candidates)) : found;
    if (gen !== this.generation) return;
    if (!node.ok) {
      log.warn(`cannot start the daemon: ${node.problem}; fix: ${node.fix}`);
      this.setState({ kind: 'noNode', problem: node.problem, fix: node.fix });
      return;
    }
    // A package for another platform, or one without this Node's module: the daemon would
    // refuse to start; say so in one line with the fix instead.
    const binding = chooseNativeBinding({
      distDir: this.opts.distDir,
      platform: process.platform,
      arch: process.arch,
      abi: String(SUPPORTED_NODE.find((n) => `v${n.major}` === node.version.split('.')[0])?.abi ?? ''),
      nodeVersion: node.version,
      execPath: node.path,
      exists: (f) => fs.existsSync(f),
    });
    if (!binding.ok) {
      log.warn(binding.message);
      this.setState({ kind: 'noNode', problem: binding.problem, fix: binding.fix, module: true });
      void vscode.window.showErrorMessage(`svc: ${binding.message}`);
      return;
    }
    log.info(`the daemon runs on Node ${node.version} at ${node.path} (${node.source}): ${node.why}`);
    this.node = node.path;
    let socket: net.Socket;
    try {
      const attached = await ensureDaemon({
        home: this.home,
        daemonScript: `${this.opts.distDir}/daemon.js`,
        nodePath: node.path,
        build: SVC_BUILD,
        env: this.opts.env,
        stopOther: (s) => askToStop(s, `replaced by build ${SVC_BUILD} (VS Code)`),
      });
      socket = attached.socket;
      log.info(
        `${attached.started ? 'started' : 'found'} daemon pid ${attached.discovery.pid} (${node.path}, SVC_HOME ${this.home})`,
      );
    } catch (e) {
      if (gen !== this.generation) return;
      this.lost(gen, errorMessage(e));
      return;
    }
    if (gen !== this.generation) {
      socket.destroy();
      return;
    }
    await this.connect(socket, gen);
  }

  /** A typed request; throws DaemonDown without a connection, DaemonRefusal on a daemon error. */
  async request<P extends z.ZodType, R extends z.ZodType>(
    def: RequestDef<P, R>,
    params: z.input<P>,
  ): Promise<z.output<R>> {
    if (this.current.kind === 'connecting') await this.settled(CONNECT_WAIT_MS);
    const client = this.client;
    if (!client || this.current.kind !== 'connected') throw new DaemonDown(this.whyDown());
    try {
      return await client.sendRequest(def.method, params);
    } catch (e) {
      const answer = readRpcError(e);
      if (answer === 'lost') throw new DaemonDown(connectionLostMessage(def.method, params));
      throw answer ?? e;
    }
  }

  /** Waits out a connect in progress, then throws DaemonDown (saying why) unless connected: commands call it before asking anything. */
  async usable(): Promise<void> {
    if (this.current.kind === 'connecting') await this.settled(CONNECT_WAIT_MS);
    if (this.current.kind !== 'connected') throw new DaemonDown(this.whyDown());
  }

  /** A fresher daemon/status while connected (counts for the status bar and the rail). */
  updateInfo(info: DaemonInfo): void {
    if (this.current.kind === 'connected' && this.current.info.pid === info.pid)
      this.setState({ kind: 'connected', info });
  }

  /** Subscribes to a daemon notification for the life of the window (across reconnects). */
  onNotification<P extends z.ZodType>(def: NotificationDef<P>, fn: (params: z.output<P>) => void): vscode.Disposable {
    let set = this.handlers.get(def.method);
    if (!set) {
      set = new Set();
      this.handlers.set(def.method, set);
      this.client?.onNotification(def.method, (p: unknown) => this.dispatch(def.method, p));
    }
    const handler = fn as (p: unknown) => void;
    set.add(handler);
    return new vscode.Disposable(() => set.delete(handler));
  }

  /** Why requests fail right now, in words for the person. */
  whyDown(): string {
    const s = this.current;
    if (s.kind === 'connecting') return 'still connecting to it';
    if (s.kind === 'down') return s.why;
    if (s.kind === 'noNode') return `${s.problem}; ${s.fix}`;
    return 'it is connected';
  }

  dispose(): void {
    this.disposed = true;
    this.reset();
    this.stateEmitter.dispose();
    this.changedEmitter.dispose();
  }

  private async connect(socket: net.Socket, gen: number): Promise<void> {
    const client = new LanguageClient('svc', 'svc daemon', async () => ({ reader: socket, writer: socket }), {
      documentSelector: [],
      outputChannel: outputChannel(),
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => {
          this.lost(gen, 'the connection to the daemon closed (it stopped or restarted)');
          // The client logs this message; svc re-attaches by itself (see lost()).
          return {
            action: CloseAction.DoNotRestart,
            handled: true,
            message: 'the svc daemon connection closed; svc re-attaches once a daemon runs',
          };
        },
      },
    });
    this.client = client;
    for (const method of this.handlers.keys()) client.onNotification(method, (p: unknown) => this.dispatch(method, p));
    try {
      await client.start();
      const info = await client.sendRequest<DaemonInfo>(daemonStatus.method, {});
      if (gen !== this.generation) return;
      this.attempt = 0;
      log.info(`connected to daemon ${info.version} build ${info.build} pid ${info.pid}`);
      this.setState({ kind: 'connected', info });
    } catch (e) {
      this.lost(gen, `the daemon did not complete the handshake: ${errorMessage(e)}`);
      socket.destroy();
    }
  }

  private dispatch(method: string, params: unknown): void {
    for (const fn of this.handlers.get(method) ?? []) {
      try {
        fn(params);
      } catch (e) {
        log.error(`handler of ${method} failed`, e);
      }
    }
  }

  /** The connection is gone: say why, then try to re-attach with backoff (never start). */
  private lost(gen: number, why: string): void {
    if (gen !== this.generation || this.disposed) return;
    const next = this.reset(false); // the client is closing itself; stopping it again only logs errors
    log.warn(`daemon connection down: ${why}`);
    this.setState({ kind: 'down', why, since: Date.now() });
    this.schedule(next);
  }

  private schedule(gen: number): void {
    const delay = backoffDelay(this.attempt++);
    this.timer = setTimeout(() => void this.reattach(gen), delay);
  }

  private async reattach(gen: number): Promise<void> {
    if (gen !== this.generation || this.disposed) return;
    const r = await attachExisting(this.home, SVC_BUILD);
    if (gen !== this.generation || this.disposed) {
      if ('socket' in r) r.socket.destroy();
      return;
    }
    if ('socket' in r) {
      log.info(`re-attaching to daemon pid ${r.discovery.pid}`);
      await this.connect(r.socket, gen);
      return;
    }
    const s = this.current;
    if (s.kind === 'down' && s.why !== r.why) this.setState({ ...s, why: r.why });
    this.schedule(gen);
  }

  /** Drops the current client (stopping it unless it is closing by itself) and any pending retry; returns the new generation. */
  private reset(stopClient = true): number {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const old = this.client;
    this.client = undefined;
    // stop() sends shutdown and exit, which end only this window's connection.
    if (old && stopClient) {
      try {
        old.stop(2000).catch(() => undefined);
      } catch {
        // already stopped by its close handler
      }
    }
    return this.generation;
  }

  private setState(s: ConnectionState): void {
    this.current = s;
    if (!this.disposed) this.stateEmitter.fire(s);
  }

  private settled(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const sub = this.onDidChangeState((s) => s.kind !== 'connecting' && done());
      function done() {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  }
}
