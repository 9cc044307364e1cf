// The store side of WorktreeFacts' memory: clean answers kept across daemon restarts, one
// row per worktree dir, each statement prepared once (the first list after a restart reads
// one row per lane).
// Writes wait in memory until WorktreeFacts flushes them, all in one transaction: the store
// commits with synchronous=FULL, and one commit (one fsync) per recounted lane held the list's
// thread for longer than the lanes' git status took. A kept row is a hint the next daemon
// re-checks against the files, so a write lost in a crash costs that lane a recount only.
import type { FactsMemory } from '../git/worktreeFacts';
import type { KeptClean } from '../git/worktreeRecheck';
import type { Db } from '../store/db';
import { logger } from '../util/log';

interface Row {
  head: string;
  indexDigest: string;
  dirs: string;
  dirsSig: string;
  configSig: string;
}

const log = logger('git-facts');

export function keptFactsStore(db: Db): FactsMemory {
  const get = db.prepare(
    'SELECT head, index_digest AS indexDigest, dirs, dirs_sig AS dirsSig, config_sig AS configSig FROM kept_worktree_facts WHERE dir = ?',
  );
  const put = db.prepare(
    'INSERT OR REPLACE INTO kept_worktree_facts (dir, head, index_digest, dirs, dirs_sig, config_sig) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const del = db.prepare('DELETE FROM kept_worktree_facts WHERE dir = ?');
  /** Writes not yet in the store, by dir: the answer to keep, or null to drop the row. */
  const pending = new Map<string, KeptClean | null>();
  // Dirs the store was found to hold no row for. Only this daemon writes the rows, and every
  // write passes through `keep` first, so such a dir stays without one until it is kept: a
  // list does not ask the store again for each lane whose worktree is gone (one query per
  // lane on every read of the deck).
  const absent = new Set<string>();
  const write = db.transaction(() => {
    for (const [dir, k] of pending) {
      if (k) put.run(dir, k.head, k.indexDigest, JSON.stringify(k.dirs), k.dirsSig, k.configSig);
      else del.run(dir);
    }
  });
  return {
    recall(dir: string): KeptClean | undefined {
      if (pending.has(dir)) return pending.get(dir) ?? undefined;
      if (absent.has(dir)) return undefined;
      const r = get.get(dir) as Row | undefined;
      if (!r) {
        absent.add(dir);
        return undefined;
      }
      try {
        return { ...r, dirs: JSON.parse(r.dirs) as string[] };
      } catch {
        return undefined;
      }
    },
    keep(dir: string, k: KeptClean): void {
      absent.delete(dir);
      pending.delete(dir); // the newest write last, whatever came before
      pending.set(dir, k);
    },
    drop(dir: string): void {
      pending.delete(dir);
      pending.set(dir, null);
    },
    flush(): void {
      if (pending.size === 0) return;
      try {
        write();
      } catch (err) {
        // Not kept: the next restart recounts these lanes; this daemon's answers are unaffected.
        log.warn(`${pending.size} worktree answer(s) not kept for the next restart`, err);
      }
      pending.clear();
    },
  };
}
