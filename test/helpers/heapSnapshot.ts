// Heap snapshots of a running daemon, for tests that measure what it keeps in memory. The
// daemon must run with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` (see
// `snapshotNodeOptions`): on the signal it runs a full GC and writes the snapshot there.
// What a snapshot says is read from its nodes: the live heap is the sum of their sizes, and
// objects are counted by constructor name (which is how "one closed client still held"
// becomes a number a test can assert).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually } from './scratch';

export interface HeapSummary {
  /** Live heap in bytes: the sum of every node's self size, after the full GC. */
  liveBytes: number;
  /**
   * The live heap without compiled code: what the program holds. Code grows for a while as
   * the JIT compiles and deoptimizes (hundreds of kilobytes over thousands of connections
   * on a warm daemon) without anything being retained.
   */
  dataBytes: number;
  /** How many objects each of the asked-for constructors has. */
  counts: Record<string, number>;
}

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
}

/** NODE_OPTIONS for a daemon whose heap a test will snapshot into `dir`. */
export const snapshotNodeOptions = (dir: string) => `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;

/** Sums a snapshot's live heap and counts the objects made by each of `constructors`. */
export function summarize(json: string, constructors: readonly string[]): HeapSummary {
  const s = JSON.parse(json) as SnapshotJson;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const objectType = types.indexOf('object');
  const codeType = types.indexOf('code');
  const wanted = new Map(constructors.map((c) => [c, 0]));
  let liveBytes = 0;
  let codeBytes = 0;
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    liveBytes += s.nodes[i + sizeAt];
    if (s.nodes[i + typeAt] === codeType) codeBytes += s.nodes[i + sizeAt];
    if (s.nodes[i + typeAt] !== objectType) continue;
    const name = s.strings[s.nodes[i + nameAt]];
    const n = wanted.get(name);
    if (n !== undefined) wanted.set(name, n + 1);
  }
  return { liveBytes, dataBytes: liveBytes - codeBytes, counts: Object.fromEntries(wanted) };
}

/**
 * Signals process `pid` to write a heap snapshot into `dir`, waits until it is complete,
 * summarizes it and deletes it (snapshots are tens of megabytes).
 */
export async function snapshotHeap(
  pid: number,
  dir: string,
  constructors: readonly string[] = [],
): Promise<HeapSummary> {
  const before = new Set(fs.readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const file = await eventually(
    () => fs.readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot')),
    120_000,
    'the heap snapshot',
  );
  // Written in place, a chunk at a time: read it once its last bytes close the JSON.
  const full = path.join(dir, file);
  await eventually(() => lastBytes(full, 2) === ']}', 300_000, 'a complete heap snapshot');
  const summary = summarize(fs.readFileSync(full, 'utf8'), constructors);
  fs.rmSync(full);
  return summary;
}

/** The file's last `n` bytes, read alone: the snapshot is tens of megabytes and still growing. */
function lastBytes(file: string, n: number): string {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(n, size));
    fs.readSync(fd, buf, 0, buf.length, size - buf.length);
    return buf.toString();
  } finally {
    fs.closeSync(fd);
  }
}
