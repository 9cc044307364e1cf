// The facts worker's thread (factsWorkers.ts): the file-system reads of worktreeRecheck.ts
// and indexContent.ts whose cost grows with a repository's size, run here so the daemon's
// own thread never waits for them. Each message is one task; its answer goes back with its id.
import { parentPort } from 'node:worker_threads';
import { runFactsTask } from './factsTasks';
import type { FactsTaskMessage } from './factsTasks';

parentPort?.on('message', (m: FactsTaskMessage) => {
  let reply: { id: number; value?: unknown; error?: string };
  try {
    reply = { id: m.id, value: runFactsTask(m.task) };
  } catch (e) {
    reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(reply);
});
