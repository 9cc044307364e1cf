// The ACP lines of an agent behind the relay: whole lines only reach the SDK, and a gap in
// the output fails exactly the requests still waiting for their answer.
import * as assert from 'node:assert/strict';
import { AcpLines } from '../../server/hosts/acpLines';

const line = (o: object) => JSON.stringify(o) + '\n';

describe('ACP lines across a connection that can lose output', () => {
  it('gives whole lines only, joining a line cut across chunks', () => {
    const l = new AcpLines();
    const a = line({ jsonrpc: '2.0', method: 'session/update', params: { n: 1 } });
    assert.equal(l.wholeLines(Buffer.from(a.slice(0, 10))), null);
    assert.equal(l.wholeLines(Buffer.from(a.slice(10) + '{"jsonrpc"'))?.toString(), a);
  });

  it('a gap drops the half line (its size is given) and answers each waiting request once, with the reason', () => {
    const l = new AcpLines();
    l.noteInput(
      Buffer.from(
        line({ jsonrpc: '2.0', id: 1, method: 'session/prompt' }) +
          line({ jsonrpc: '2.0', id: 'x', method: 'session/load' }),
      ),
    );
    l.noteInput(Buffer.from(line({ jsonrpc: '2.0', method: 'session/cancel' }))); // a notification waits for nothing
    assert.ok(l.wholeLines(Buffer.from(line({ jsonrpc: '2.0', id: 'x', result: {} }) + '{"half')));
    const gap = l.gap((cut) => `lost ${cut} bytes`);
    assert.equal(gap.said, 'lost 6 bytes');
    assert.deepEqual(
      gap.answers.map((b) => JSON.parse(b.toString()) as unknown),
      [
        {
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32603, message: 'lost 6 bytes; the answer to this request may have been among them' },
        },
      ],
    );
    assert.deepEqual(l.gap(() => 'again').answers, []);
    // the half line is gone: the next line starts clean
    assert.equal(l.wholeLines(Buffer.from(line({ ok: 1 })))?.toString(), line({ ok: 1 }));
  });

  it('an agent request answered by svc is not a request svc waits for', () => {
    const l = new AcpLines();
    l.noteInput(Buffer.from(line({ jsonrpc: '2.0', id: 7, result: { outcome: 'allow' } })));
    assert.deepEqual(l.gap(() => 'x').answers, []);
  });
});
