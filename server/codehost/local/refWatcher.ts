// Watches a bare repository's refs (refs/ recursively and packed-refs) and calls back,
// debounced, after a burst of changes. The callback re-reads the refs with git to
// confirm what moved: file events only say "look again", never what the head is.
// A slow rescan covers events the platform drops.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../../util/log';

const log = logger('codehost');

export interface RefWatcherOptions {
  debounceMs?: number;
  /** 0 disables the periodic rescan. */
  rescanMs?: number;
}

export class RefWatcher {
  private watchers: fs.FSWatcher[] = [];
  private timer?: NodeJS.Timeout;
  private rescan?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly gitDir: string,
    private readonly onChange: () => void,
    private readonly opts: RefWatcherOptions = {},
  ) {}

  start(): void {
    if (this.watchers.length || this.closed) return;
    const kick = (file: string | null) => {
      if (file && file.endsWith('.lock')) return; // the rename that follows is what counts
      this.schedule();
    };
    try {
      this.watchers.push(fs.watch(path.join(this.gitDir, 'refs'), { recursive: true }, (_e, f) => kick(f)));
      this.watchers.push(
        fs.watch(this.gitDir, (_e, f) => {
          if (f === 'packed-refs') kick(f);
        }),
      );
    } catch (e) {
      log.warn(`cannot watch ${this.gitDir}; relying on the periodic rescan`, e);
    }
    for (const w of this.watchers) w.on('error', (e) => log.warn(`watch error on ${this.gitDir}`, e));
    const every = this.opts.rescanMs ?? 60_000;
    if (every > 0) {
      this.rescan = setInterval(() => this.onChange(), every);
      this.rescan.unref();
    }
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
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}
