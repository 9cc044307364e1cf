// Watches the LSP framing of incoming bytes before vscode-jsonrpc sees them, and ends
// the connection on broken headers or an oversized message, so one bad client can
// neither make the daemon buffer without bound nor wedge its reader.
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';

export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const MAX_HEADER_BYTES = 8 * 1024;

export class FrameGuard extends Transform {
  private header = Buffer.alloc(0);
  private bodyLeft = 0;

  constructor(
    private readonly onViolation: (why: string) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
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
        if (combined.length > MAX_HEADER_BYTES) return this.violate('header too long', done);
        this.header = Buffer.from(combined);
        offset = chunk.length;
        break;
      }
      const length = parseContentLength(combined.subarray(0, end).toString('ascii'));
      if (length === undefined) return this.violate('missing or bad Content-Length header', done);
      if (length > this.maxBytes) return this.violate(`message of ${length} bytes exceeds the ${this.maxBytes}-byte limit`, done);
      const consumedFromChunk = end + 4 - this.header.length;
      this.header = Buffer.alloc(0);
      offset += consumedFromChunk;
      this.bodyLeft = length;
    }
    done(null, chunk);
  }

  private violate(why: string, done: TransformCallback): void {
    this.onViolation(why);
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
