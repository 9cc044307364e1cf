// The ACP lines crossing a connection that can lose output (an agent on a host, behind the
// relay): the SDK is given whole lines only, so a gap can drop a half line cleanly, and the
// requests still waiting for an answer are known, so a gap fails exactly those.

export class AcpLines {
  /** Output of a line not complete yet. */
  private partial: Buffer = Buffer.alloc(0);
  private outRest = '';
  private inRest = '';
  /** JSON-RPC ids of requests sent to the agent and not answered yet. */
  private readonly waiting = new Set<string>();

  /** Input to the agent: notes the requests in it. */
  noteInput(chunk: Buffer): void {
    this.inRest = scanLines(this.inRest, chunk, (m) => {
      if (typeof m.method === 'string' && m.id !== undefined && m.id !== null) this.waiting.add(JSON.stringify(m.id));
    });
  }

  /** Output of the agent: the whole lines it completes (null when none), with the answers noted. */
  wholeLines(body: Buffer): Buffer | null {
    const buf = this.partial.length ? Buffer.concat([this.partial, body]) : body;
    const nl = buf.lastIndexOf(0x0a);
    if (nl < 0) {
      this.partial = buf;
      return null;
    }
    const whole = buf.subarray(0, nl + 1);
    this.partial = Buffer.from(buf.subarray(nl + 1));
    this.outRest = scanLines(this.outRest, whole, (m) => {
      if (m.method === undefined && m.id !== undefined && m.id !== null) this.waiting.delete(JSON.stringify(m.id));
    });
    return whole;
  }

  /** Output was lost: drops the half line held (its size is returned) and answers every waiting request with an error saying `what`. */
  gap(what: (halfLineBytes: number) => string): { said: string; answers: Buffer[] } {
    const cut = this.partial.length;
    this.partial = Buffer.alloc(0);
    this.outRest = '';
    const said = what(cut);
    const answers = [...this.waiting].map((id) =>
      Buffer.from(
        JSON.stringify({
          jsonrpc: '2.0',
          id: JSON.parse(id) as unknown,
          error: { code: -32603, message: `${said}; the answer to this request may have been among them` },
        }) + '\n',
      ),
    );
    this.waiting.clear();
    return { said, answers };
  }

  /** The agent ended: nothing waits any more. */
  clear(): void {
    this.waiting.clear();
  }
}

/** Calls `fn` with each whole JSON line of `chunk` (after the carried `rest`); returns the new rest. */
function scanLines(rest: string, chunk: Buffer, fn: (m: { method?: unknown; id?: unknown }) => void): string {
  const text = rest + chunk.toString('utf8');
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      fn(JSON.parse(line) as { method?: unknown; id?: unknown });
    } catch {
      // not JSON: nothing to note
    }
  }
  return tail;
}
