// External edits to projects.yaml and config.yaml reach every client without a reload:
// the folder (not the files) is watched, because editors and svc itself replace a file
// by renaming a new one over it, which ends a watch on the old inode. Events are
// debounced, then each file's bytes are compared with the last ones seen, so a write the
// daemon made itself (already announced) and no-op touches do not notify again.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { logger } from '../util/log';

const log = logger('config');

export const CONFIG_DEBOUNCE_MS = 150;

export interface ConfigWatch {
  /** Records a file's current bytes as seen (after the daemon wrote it and notified). */
  seen(file: string): void;
  close(): void;
}

function bytesOf(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Watches `files` (all in one folder); calls `changed` once per burst of real changes. */
export function watchConfigFiles(files: string[], changed: () => void): ConfigWatch {
  const dir = path.dirname(files[0]);
  const names = new Set(files.map((f) => path.basename(f)));
  const last = new Map(files.map((f) => [f, bytesOf(f)]));
  let timer: NodeJS.Timeout | undefined;
  let watcher: fs.FSWatcher | undefined;

  const check = () => {
    timer = undefined;
    let any = false;
    for (const f of files) {
      const now = bytesOf(f);
      if (now !== last.get(f)) {
        last.set(f, now);
        any = true;
      }
    }
    if (any) changed();
  };

  try {
    watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
      // A null name (some platforms) may be any file: check both.
      if (name !== null && !names.has(String(name))) return;
      clearTimeout(timer);
      timer = setTimeout(check, CONFIG_DEBOUNCE_MS);
    });
    watcher.on('error', (e) =>
      log.warn(
        `watching ${dir} stopped: ${e.message}; edits made outside svc show after the next change made through it`,
      ),
    );
  } catch (e) {
    log.warn(`cannot watch ${dir}: ${(e as Error).message}`);
  }

  return {
    seen(file) {
      last.set(file, bytesOf(file));
    },
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
