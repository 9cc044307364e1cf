// The store side of WorktreeFacts' memory: clean answers kept across daemon restarts, one
// row per worktree dir, each statement prepared once (the first list after a restart reads
// one row per lane).
import type { FactsMemory } from '../git/worktreeFacts';
import type { KeptClean } from '../git/worktreeRecheck';
import type { Db } from '../store/db';

interface Row {
  head: string;
  indexDigest: string;
  dirs: string;
  dirsSig: string;
  configSig: string;
}

export function keptFactsStore(db: Db): FactsMemory {
  const get = db.prepare(
    'SELECT head, index_digest AS indexDigest, dirs, dirs_sig AS dirsSig, config_sig AS configSig FROM kept_worktree_facts WHERE dir = ?',
  );
  const put = db.prepare(
    'INSERT OR REPLACE INTO kept_worktree_facts (dir, head, index_digest, dirs, dirs_sig, config_sig) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const del = db.prepare('DELETE FROM kept_worktree_facts WHERE dir = ?');
  return {
    recall(dir: string): KeptClean | undefined {
      const r = get.get(dir) as Row | undefined;
      if (!r) return undefined;
      try {
        return { ...r, dirs: JSON.parse(r.dirs) as string[] };
      } catch {
        return undefined;
      }
    },
    keep(dir: string, k: KeptClean): void {
      put.run(dir, k.head, k.indexDigest, JSON.stringify(k.dirs), k.dirsSig, k.configSig);
    },
    drop(dir: string): void {
      del.run(dir);
    },
  };
}
