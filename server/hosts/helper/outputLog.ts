// The relay's copy of the agent's output (relay.ts): everything sent and not yet
// acknowledged by the daemon (a reconnect resends it from the daemon's own offset), then
// what no one has been sent yet. While no one is attached the whole is bounded: the oldest
// unsent lines are dropped, whole, and the gap they leave is one LOST entry in the stream,
// counted exactly (bytes, messages, which methods, when). Data sent before a drop is never
// dropped, so whatever the daemon got before the connection broke is never counted lost.
import { F, frame } from './frames';
import type { LostSummary, RelayExit } from './frames';

type Entry = { kind: 'data'; buf: Buffer } | { kind: 'lost'; summary: LostSummary } | { kind: 'exit'; exit: RelayExit };

/** A message whose start or end was dropped: its method cannot be read. */
const PARTIAL = 'partial message';

const size = (e: Entry) => (e.kind === 'data' ? e.buf.length : 1);

function kindOf(line: Buffer): string {
  try {
    const m = JSON.parse(line.toString('utf8')) as { method?: unknown; id?: unknown };
    if (typeof m.method === 'string') return m.method;
    if (m.id !== undefined) return 'response';
  } catch {
    // not a JSON-RPC line
  }
  return 'other';
}

export class OutputLog {
  /** Stream offset of the first unacknowledged entry. */
  acked = 0;
  /** Stream offset after the last entry sent. */
  sentEnd = 0;
  private sent: Entry[] = [];
  private sentBytes = 0;
  private sentEndsLine = true;
  /** Unsent output as lines; the last may be partial (no newline yet). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private gap: LostSummary | null = null;
  /** Dropping a line whose start was dropped, until its newline. */
  private skipping = false;
  private exit: RelayExit | null = null;
  private exitSent = false;

  constructor(readonly bound: number) {}

  /** Bytes held: sent but unacknowledged, plus unsent. */
  get bytes(): number {
    return this.sentBytes + this.pendingBytes;
  }

  get hasUnsent(): boolean {
    return this.pendingBytes > 0 || this.gap !== null || (this.exit !== null && !this.exitSent);
  }

  /** The daemon holds everything, the exit included. */
  get exitAcked(): boolean {
    return this.exitSent && this.acked === this.sentEnd;
  }

  /** Agent output; `detached`: no one is attached, so the bound applies. */
  append(chunk: Buffer, detached: boolean, now: number): void {
    let buf = chunk;
    if (this.skipping) {
      const nl = buf.indexOf(0x0a);
      const cut = nl < 0 ? buf.length : nl + 1;
      this.lose(buf.subarray(0, cut), nl < 0 ? null : PARTIAL, now);
      if (nl < 0) return;
      this.skipping = false;
      buf = buf.subarray(cut);
    }
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(0x0a, start);
      const end = nl < 0 ? buf.length : nl + 1;
      const piece = buf.subarray(start, end);
      const last = this.pending[this.pending.length - 1];
      if (last && last[last.length - 1] !== 0x0a) this.pending[this.pending.length - 1] = Buffer.concat([last, piece]);
      else this.pending.push(Buffer.from(piece));
      this.pendingBytes += piece.length;
      start = end;
    }
    if (detached) this.enforce(now);
  }

  /** The agent ended: its exit follows the last output. */
  end(exit: RelayExit): void {
    this.exit = exit;
  }

  private enforce(now: number): void {
    while (this.bytes > this.bound && this.pending.length > 0) {
      const line = this.pending.shift()!;
      this.pendingBytes -= line.length;
      const whole = line[line.length - 1] === 0x0a;
      // The first unsent line may continue one the daemon got the start of: its method is unknown.
      const continues = !this.sentEndsLine && this.gap === null;
      this.sentEndsLine = true;
      this.lose(line, !whole ? null : continues ? PARTIAL : kindOf(line), now);
      if (!whole) this.skipping = true;
    }
  }

  /** `kind`: the dropped bytes end a message of this kind; null: they end none (its newline is still to come). */
  private lose(bytes: Buffer, kind: string | null, now: number): void {
    const g = (this.gap ??= { bytes: 0, lines: 0, kinds: {}, from: now, to: now, bound: this.bound });
    g.bytes += bytes.length;
    g.to = now;
    if (kind === null) return;
    g.lines++;
    g.kinds[kind] = (g.kinds[kind] ?? 0) + 1;
  }

  /** Frames for everything not sent yet (the gap, the output, the exit), now counted as sent. */
  takeUnsent(): Buffer[] {
    const out: Buffer[] = [];
    const push = (e: Entry) => {
      this.sent.push(e);
      this.sentEnd += size(e);
      if (e.kind === 'data') this.sentBytes += e.buf.length;
      out.push(frameOf(e));
    };
    if (this.gap) {
      push({ kind: 'lost', summary: this.gap });
      this.gap = null;
    }
    if (this.pending.length > 0) {
      const buf = Buffer.concat(this.pending);
      this.pending = [];
      this.pendingBytes = 0;
      this.sentEndsLine = buf[buf.length - 1] === 0x0a;
      push({ kind: 'data', buf });
    }
    if (this.exit && !this.exitSent) {
      this.exitSent = true;
      push({ kind: 'exit', exit: this.exit });
    }
    return out;
  }

  /** The daemon holds the output up to `offset`: forget it. */
  ack(offset: number): void {
    let at = this.acked;
    while (this.sent.length > 0) {
      const e = this.sent[0];
      const n = size(e);
      if (at + n <= offset) {
        this.sent.shift();
        if (e.kind === 'data') this.sentBytes -= n;
        at += n;
      } else {
        if (e.kind === 'data' && offset > at) {
          e.buf = e.buf.subarray(offset - at);
          this.sentBytes -= offset - at;
          at = offset;
        }
        break;
      }
    }
    this.acked = at;
  }

  /**
   * A reconnect: frames of what was sent from `offset` (what the daemon holds) on. An offset
   * before what was acknowledged cannot be served (a daemon that lost what it acknowledged).
   */
  resendFrom(offset: number): Buffer[] | null {
    if (offset < this.acked || offset > this.sentEnd) return null;
    this.ack(offset);
    return this.sent.map(frameOf);
  }
}

function frameOf(e: Entry): Buffer {
  if (e.kind === 'data') return frame(F.OUT, e.buf);
  if (e.kind === 'lost') return frame(F.LOST, e.summary);
  return frame(F.EXIT, e.exit);
}
