// A raw JSON-RPC client on a scratch daemon's socket, for methods the shim has no command
// for (the test clock) and for protocol-level tests.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { z } from 'zod';
import type { RequestDef } from '../../shared/protocol/rpc';
import { daemonAdvanceClock } from '../../shared/protocol/daemon';

export async function rpcRequest<P extends z.ZodType, R extends z.ZodType>(
  svcHome: string,
  def: RequestDef<P, R>,
  params: z.input<P>,
): Promise<z.output<R>> {
  const d = JSON.parse(fs.readFileSync(path.join(svcHome, 'server.json'), 'utf8')) as { socketPath: string };
  const socket = net.connect(d.socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const c = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  c.listen();
  try {
    return await c.sendRequest(def.method, params);
  } finally {
    c.dispose();
    socket.destroy();
  }
}

/** Moves a test daemon's clock forward (the daemon runs with SVC_TEST_CLOCK=1). */
export function advanceClock(svcHome: string, ms: number): Promise<{ now: number }> {
  return rpcRequest(svcHome, daemonAdvanceClock, { ms });
}
