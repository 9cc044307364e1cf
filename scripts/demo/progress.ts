// Follows a gauntlet run as it happens, from daemon notifications (no polling): prints
// one line when a lane is launched, files a report, or is reaped; and says when one fails to start.
import * as fs from 'node:fs';
import * as net from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { changed } from '../../shared/protocol/daemon';
import { lanesList } from '../../shared/protocol/lanes';
import type { LaneRecord } from '../../shared/protocol/lanes';

export interface Progress {
  /** Resolves when `done(lanes)` says the run is finished. */
  finished: Promise<LaneRecord[]>;
  /** Resolves with the first lane of the run that failed to start. */
  failed: Promise<LaneRecord>;
  rpc: MessageConnection;
  close(): void;
}

export async function followRun(
  discoveryFile: string,
  run: string,
  print: (line: string) => void,
  done: (lanes: LaneRecord[]) => boolean,
): Promise<Progress> {
  const { socketPath } = JSON.parse(fs.readFileSync(discoveryFile, 'utf8')) as { socketPath: string };
  const socket = net.connect(socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const rpc = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  rpc.listen();
  const seen = new Map<number, { reports: number; reaped: boolean }>();
  let finish: (lanes: LaneRecord[]) => void = () => undefined;
  const finished = new Promise<LaneRecord[]>((r) => (finish = r));
  let fail: (lane: LaneRecord) => void = () => undefined;
  const failed = new Promise<LaneRecord>((r) => (fail = r));
  let reading = false;
  let again = false;
  let closed = false;
  const read = async () => {
    if (reading || closed) return void (again = true);
    reading = true;
    try {
      const { lanes } = (await rpc.sendRequest(lanesList.method, { run }).catch(() => ({ lanes: [] }))) as {
        lanes: LaneRecord[];
      };
      for (const l of lanes) {
        const tag = `${l.run}/${l.key} ${l.role} i${l.iteration}`;
        const was = seen.get(l.id) ?? { reports: 0, reaped: false };
        if (!seen.has(l.id))
          print(`  + ${tag} launched as conv #${l.id}${l.git?.branch ? ` on branch ${l.git.branch}` : ''}`);
        if (l.report && l.report.seq > was.reports) {
          const v = l.report.verdict ? ` · verdict ${l.report.verdict} (${l.report.defects ?? 0} defects)` : '';
          print(`  ✓ ${tag} reported ${l.report.status}${v}`);
        }
        if (l.reaped && !was.reaped) print(`  − ${tag} reaped`);
        seen.set(l.id, { reports: l.report?.seq ?? 0, reaped: l.reaped });
      }
      const notStarted = lanes.find((l) => l.activity === 'failed-to-start');
      if (notStarted) fail(notStarted);
      if (done(lanes)) finish(lanes);
    } finally {
      reading = false;
      if (again && !closed) {
        again = false;
        void read();
      }
    }
  };
  rpc.onNotification(changed.method, (p: { topic: string }) => {
    if (p.topic === 'lanes' || p.topic === 'runs') void read();
  });
  return {
    finished,
    failed,
    rpc,
    close: () => {
      closed = true;
      rpc.dispose();
      socket.destroy();
    },
  };
}
