// Watches the LSP framing of incoming bytes before vscode-jsonrpc sees them, and ends
// the connection on broken headers or an oversized message, so one bad client can
// neither make the daemon buffer without bound nor wedge its reader. A message left
// half-sent (a header or body begun, then silence) ends the connection after an idle
// time, so clients that never finish cannot hold the daemon's descriptors forever.
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const MAX_HEADER_BYTES = 8 * 1024;
/** Silence allowed inside a message: a client writes a whole frame at once over a local socket. */
export const PARTIAL_FRAME_IDLE_MS = 10_000;

export class FrameGuard extends Transform {
  private header = Buffer.alloc(0);
  private bodyLeft = 0;
  private idleTimer?: NodeJS.Timeout;

  constructor(
    /** `sample` is the start of the offending bytes, for the log (escape it there). */
    private readonly onViolation: (why: string, sample: Buffer) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
    private readonly idleMs = PARTIAL_FRAME_IDLE_MS,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.scan(chunk, done);
    this.armIdleTimer();
  }

  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    cb(err);
  }

  override _final(cb: (error?: Error | null) => void): void {
    clearTimeout(this.idleTimer);
    cb();
  }

  /** Running only while a message is incomplete; every chunk restarts it. */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.header.length === 0 && this.bodyLeft === 0) return;
    this.idleTimer = setTimeout(() => {
      const what =
        this.bodyLeft > 0 ? `a message body with ${this.bodyLeft} bytes still to come` : 'an unfinished header';
      this.onViolation(`${what} sat idle for ${Math.round(this.idleMs / 1000)} s`, this.header);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private scan(chunk: Buffer, done: TransformCallback): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - offset);
        this.bodyLeft -= take;
        offset += take;
        continue;
      }
      const rest = chunk.subarray(offset);
      const combined = this.header.length ? Buffer.concat([this.header, rest]) : rest;
      const end = combined.indexOf('\r\n\r\n');
      if (end < 0) {
        if (combined.length > MAX_HEADER_BYTES) return this.violate('header too long', combined, done);
        this.header = Buffer.from(combined);
        offset = chunk.length;
        break;
      }
      const length = parseContentLength(combined.subarray(0, end).toString('ascii'));
      if (length === undefined) return this.violate('missing or bad Content-Length header', combined, done);
      if (length > this.maxBytes)
        return this.violate(`message of ${length} bytes exceeds the ${this.maxBytes}-byte limit`, combined, done);
      const consumedFromChunk = end + 4 - this.header.length;
      this.header = Buffer.alloc(0);
      offset += consumedFromChunk;
      this.bodyLeft = length;
    }
    done(null, chunk);
  }

  private violate(why: string, sample: Buffer, done: TransformCallback): void {
    this.header = Buffer.alloc(0);
    this.bodyLeft = 0;
    this.onViolation(why, sample);
    done();
  }
}

function parseContentLength(headers: string): number | undefined {
  let length: number | undefined;
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,10}$/.test(value)) return undefined;
      length = Number(value);
    }
  }
  return length;
}
