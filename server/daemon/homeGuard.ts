// Keeps one daemon per SVC_HOME while files of the home are deleted under it. Every second
// the running daemon checks that daemon.lock, its socket and server.json are still its own
// and puts back what is gone: a starter that finds any of them answering (the socket, or
// server.json's daemon over HTTP) leaves the home to us (shared/client/homeDaemon.ts).
// Should a second daemon still have come up in the second after all three were deleted,
// it is asked to stop: the daemon that served the home first keeps it, with its agents.
import * as fs from 'node:fs';
import { askToStop } from '../../shared/client/daemonRefusal';
import { isAlive, tryConnect } from '../../shared/client/daemonProcess';
import { readDiscovery } from '../../shared/discovery';
import type { homePaths } from '../../shared/svcHome';
import { writeAtomic } from '../config/configStore';
import type { RpcServer } from '../rpc/rpcServer';
import { logger } from '../util/log';
import { InstanceLock } from './lock';

const log = logger('daemon');

export class HomeGuard {
  private socketId: string | undefined;
  private busy = false;

  constructor(
    private readonly paths: ReturnType<typeof homePaths>,
    public lock: InstanceLock,
    private readonly rpc: RpcServer,
    private readonly discoveryText: string,
  ) {
    this.socketId = fileId(paths.socket);
  }

  /** Whether `file` is this daemon's own socket / discovery file (a stop removes only those). */
  ownsSocket(): boolean {
    return this.socketId !== undefined && fileId(this.paths.socket) === this.socketId;
  }

  ownsDiscovery(): boolean {
    try {
      return fs.readFileSync(this.paths.discovery, 'utf8') === this.discoveryText;
    } catch {
      return false;
    }
  }

  async check(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.checkDiscovery();
      this.checkLock();
      await this.checkSocket();
      this.clearForeignStopMarker();
    } catch (e) {
      log.error('checking the home files failed', e);
    } finally {
      this.busy = false;
    }
  }

  private checkLock(): void {
    if (this.lock.isAt(this.paths.lock)) return;
    const again = InstanceLock.tryAcquire(this.paths.lock);
    if (!again) {
      log.error(
        `${this.paths.lock} was replaced by a file another process holds locked; a second daemon may be running on this home`,
      );
      return;
    }
    this.lock.release();
    this.lock = again;
    log.warn(`${this.paths.lock} was deleted or replaced; locked it again`);
  }

  private async checkSocket(): Promise<void> {
    if (this.ownsSocket()) return;
    if (fs.existsSync(this.paths.socket)) {
      // Another daemon's (asked to stop by checkDiscovery), or a file someone put there.
      const other = await tryConnect(this.paths.socket, 1000);
      if (other) {
        other.destroy();
        return;
      }
      fs.rmSync(this.paths.socket, { force: true });
    }
    await this.rpc.listen(this.paths.socket);
    fs.chmodSync(this.paths.socket, 0o600);
    this.socketId = fileId(this.paths.socket);
    log.warn(`${this.paths.socket} was deleted; listening on it again`);
  }

  private async checkDiscovery(): Promise<void> {
    if (this.ownsDiscovery()) return;
    let other;
    try {
      other = readDiscovery(this.paths.discovery);
    } catch {
      return; // a symlink or a wrong mode: left alone, for clients to refuse loudly
    }
    if (other && other.pid !== process.pid && isAlive(other.pid)) {
      const socket = await tryConnect(other.socketPath, 1000);
      if (socket) {
        log.error(
          `a second daemon (pid ${other.pid}) started on this home while its files were deleted; asking it to stop (this daemon, pid ${process.pid}, served the home first)`,
        );
        await askToStop(socket, `a second daemon on this SVC_HOME: pid ${process.pid} serves it`).catch(
          () => undefined,
        );
        return; // the next check writes our file again once it is gone
      }
    }
    writeAtomic(this.paths.discovery, this.discoveryText, 0o600);
    log.warn(`${this.paths.discovery} was missing or damaged; rewrote it`);
  }

  /** A stop marker written while we run is a stopped second daemon's, not ours. */
  private clearForeignStopMarker(): void {
    try {
      const marker = JSON.parse(fs.readFileSync(this.paths.stopped, 'utf8')) as { pid?: unknown };
      if (marker.pid !== process.pid) fs.rmSync(this.paths.stopped, { force: true });
    } catch {
      // none, or unreadable: nothing of ours
    }
  }
}

function fileId(file: string): string | undefined {
  try {
    const st = fs.lstatSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}
