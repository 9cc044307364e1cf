// Where the daemon listens for one sandboxed agent: beside its shared socket, in the same
// private folder. A path too long for a Unix socket (about 107 bytes) goes to the private
// per-user folder the shared socket would use (shared/svcHome.ts), named by home and id.
import * as os from 'node:os';
import * as path from 'node:path';

const MAX_SOCKET_PATH = 100;

export function agentSocketPath(sharedSocket: string, home: string, conversation: number): string {
  const beside = path.join(path.dirname(sharedSocket), `agent-${conversation}.sock`);
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH) return beside;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return path.join(os.tmpdir(), `svc-${uid}`, `${hash(home)}-agent-${conversation}.sock`);
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}
