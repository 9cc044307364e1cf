// Watches a bare repository's refs (refs/ recursively and packed-refs) and calls back,
// debounced, after a burst of changes. The callback re-reads the refs with git to
// confirm what moved: file events only say "look again", never what the head is.
// File events are not enough everywhere (network and container file systems, an
// exhausted inotify budget, a watch that failed to start), so the ref files of the
// branches that matter and packed-refs are also stat-polled, twice a second: a stat is
// no process and no read, and it sees a push within a second on any file system.
// A slow rescan covers anything else.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../../util/log';

const log = logger('codehost');

export interface RefWatcherOptions {
  debounceMs?: number;
  /** How often the watched ref files are stat-polled; 0 disables the poll. */
  pollMs?: number;
  /** false: no file events, the poll alone (as on a file system that sends none). */
  fileEvents?: boolean;
  /** 0 disables the periodic rescan. */
  rescanMs?: number;
}

export class RefWatcher {
  private watchers: fs.FSWatcher[] = [];
  private timer?: NodeJS.Timeout;
  private rescan?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private stamps = new Map<string, string>();
  private started = false;
  private closed = false;

  constructor(
    private readonly gitDir: string,
    private readonly onChange: () => void,
    private readonly opts: RefWatcherOptions = {},
    /** The branches whose refs are polled (e.g. the heads of open PRs), read at each poll. */
    private readonly branches: () => string[] = () => [],
  ) {}

  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    const kick = (file: string | null) => {
      if (file && file.endsWith('.lock')) return; // the rename that follows is what counts
      this.schedule();
    };
    if (this.opts.fileEvents !== false) this.watchFiles(kick);
    for (const w of this.watchers) w.on('error', (e) => log.warn(`watch error on ${this.gitDir}`, e));
    const every = this.opts.rescanMs ?? 60_000;
    if (every > 0) {
      this.rescan = setInterval(() => this.onChange(), every);
      this.rescan.unref();
    }
    const pollEvery = this.opts.pollMs ?? 500;
    if (pollEvery > 0) {
      this.pollRefs(); // the first poll only records where things stand
      this.poll = setInterval(() => this.pollRefs(), pollEvery);
      this.poll.unref();
    }
  }

  private watchFiles(kick: (file: string | null) => void): void {
    try {
      this.watchers.push(fs.watch(path.join(this.gitDir, 'refs'), { recursive: true }, (_e, f) => kick(f)));
      this.watchers.push(
        fs.watch(this.gitDir, (_e, f) => {
          if (f === 'packed-refs') kick(f);
        }),
      );
    } catch (e) {
      log.warn(`cannot watch ${this.gitDir}; relying on polling its refs`, e);
    }
  }

  /** Stats packed-refs and each polled branch's loose ref; any change since the last poll schedules a look. */
  private pollRefs(): void {
    const files = [
      path.join(this.gitDir, 'packed-refs'),
      ...this.branches().map((b) => path.join(this.gitDir, 'refs', 'heads', ...b.split('/'))),
    ];
    let moved = false;
    const next = new Map<string, string>();
    for (const file of files) {
      const st = fs.statSync(file, { throwIfNoEntry: false, bigint: true });
      const stamp = st ? `${st.ino}:${st.mtimeNs}:${st.size}` : 'absent';
      next.set(file, stamp);
      const was = this.stamps.get(file);
      if (was !== undefined && was !== stamp) moved = true;
    }
    this.stamps = next;
    if (moved) this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.onChange(), this.opts.debounceMs ?? 150);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.rescan);
    clearInterval(this.poll);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
