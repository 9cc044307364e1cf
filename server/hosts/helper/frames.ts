// The relay's wire (relay.ts on the host, remoteAgentProcess.ts in the daemon): one frame
// is a type byte, a 4-byte big-endian length and the payload. Both sides must stay in sync
// with this file. The attach client on the host only pipes bytes between the SSH channel
// and the relay's socket, so a frame cut by a lost connection is simply never decoded.
//
// Daemon → relay: HELLO {out} (the agent output the daemon holds), IN (agent stdin bytes),
// ACK {out}, EOF (close the agent's stdin), STOP {why} (a control connection: end the agent).
// Relay → daemon: HELLO (RelayHello), OUT (agent stdout), ERR (agent stderr, live only),
// LOST (LostSummary: output dropped while no one was attached), EXIT (RelayExit),
// ACK {in} (agent input delivered).
// IN bytes and EOF (1) count in the input offset; OUT bytes, LOST (1) and EXIT (1) in the
// output offset: what a reconnect resends from.

export const F = {
  HELLO: 0x68, // h
  IN: 0x69, // i
  ACK: 0x61, // a
  EOF: 0x45, // E
  STOP: 0x53, // S
  OUT: 0x6f, // o
  ERR: 0x65, // e
  LOST: 0x6c, // l
  EXIT: 0x78, // x
} as const;

export interface LostSummary {
  bytes: number;
  /** Whole lines (ACP messages) lost; a line cut at the start counts as one. */
  lines: number;
  /** Lost messages by JSON-RPC method ("response" for answers, "other" for lines that are not JSON-RPC). */
  kinds: Record<string, number>;
  /** Epoch ms of the first and last byte dropped. */
  from: number;
  to: number;
  /** The bound that was exceeded, in bytes. */
  bound: number;
}

export interface RelayExit {
  code: number | null;
  signal: string | null;
  at: number;
  /** Why the relay ended it, or why it could not start (not found, orphaned). */
  why?: string;
  /** No daemon was attached when it ended (it died while the connection was lost). */
  detached?: boolean;
}

/** The relay's answer to an attach. `gone`: no relay runs; `exit` is what it left, if anything. */
export interface RelayHello {
  gone?: boolean;
  exit?: RelayExit | null;
  pid?: number;
  pgid?: number;
  /** Agent input received so far (the daemon resends what follows). */
  in?: number;
  /** The output offset the relay resends from (the daemon's own, or later when that was lost). */
  out?: number;
  startedAt?: number;
}

export function frame(type: number, payload: Buffer | string | object = Buffer.alloc(0)): Buffer {
  const body = Buffer.isBuffer(payload)
    ? payload
    : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export interface Frame {
  type: number;
  body: Buffer;
}

/** Accumulates bytes and yields whole frames; a partial frame waits for the rest. */
export class FrameDecoder {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Frame[] = [];
    while (this.buf.length >= 5) {
      const len = this.buf.readUInt32BE(1);
      if (this.buf.length < 5 + len) break;
      out.push({ type: this.buf[0], body: this.buf.subarray(5, 5 + len) });
      this.buf = this.buf.subarray(5 + len);
    }
    return out;
  }
}

export const json = <T>(f: Frame): T => JSON.parse(f.body.toString('utf8')) as T;

/** "exit 3", "signal SIGTERM", plus the relay's reason. */
export function exitText(e: RelayExit): string {
  return `${e.signal ? `signal ${e.signal}` : `exit ${e.code ?? '?'}`}${e.why ? `: ${e.why}` : ''}`;
}

/** `1234 bytes in 5 messages (session/update ×4, response ×1)`. */
export function lostText(l: LostSummary): string {
  const kinds = Object.entries(l.kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
  return `${l.bytes} bytes in ${l.lines} message${l.lines === 1 ? '' : 's'}${kinds ? ` (${kinds})` : ''}`;
}
