// The pipeline journal `<workspace>/.svc/pipeline.jsonl`: append-only JSON lines
// `{at, kind, issue, runId, sha, …}` (docs/spec.md: Events). It is the only
// record of review runs; everything else is derived from it, the conversations and the
// code host at read time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JournalEntry } from '../../shared/protocol/review';
import { logger } from '../util/log';

const log = logger('review');

export type JournalKind =
  'review.requested' | 'review.dispatched' | 'review.redispatched' | 'review.verdict' | 'review.aborted';

export function journalPath(workspace: string): string {
  return path.join(workspace, '.svc', 'pipeline.jsonl');
}

export function appendJournal(workspace: string, entry: JournalEntry): void {
  const file = journalPath(workspace);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // One write per line with O_APPEND: lines never interleave, earlier lines are never touched.
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, JSON.stringify(entry) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Every entry, oldest first; a torn or foreign line is skipped (and logged), never fatal. */
export function readJournal(workspace: string): JournalEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(journalPath(workspace), 'utf8');
  } catch {
    return [];
  }
  const out: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const e = JSON.parse(line) as JournalEntry;
      if (typeof e.kind === 'string' && typeof e.at === 'string') out.push(e);
    } catch {
      log.warn(`skipping an unreadable line of ${journalPath(workspace)}`);
    }
  }
  return out;
}
