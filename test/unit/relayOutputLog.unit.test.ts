// The relay's output log (server/hosts/helper/outputLog.ts): what a reconnect resends, and
// what is lost — exactly — when an agent on a host writes more than the bound while no
// daemon is attached. The frames are those the daemon decodes (helper/frames.ts).
import * as assert from 'node:assert/strict';
import { F, FrameDecoder, lostText } from '../../server/hosts/helper/frames';
import type { LostSummary } from '../../server/hosts/helper/frames';
import { OutputLog } from '../../server/hosts/helper/outputLog';

type Seen = { out: string } | { lost: LostSummary } | { exit: number | null };

function decode(frames: Buffer[]): Seen[] {
  const d = new FrameDecoder();
  return d.push(Buffer.concat(frames)).map((f) => {
    if (f.type === F.OUT) return { out: f.body.toString('utf8') };
    if (f.type === F.LOST) return { lost: JSON.parse(f.body.toString('utf8')) as LostSummary };
    if (f.type === F.EXIT) return { exit: (JSON.parse(f.body.toString('utf8')) as { code: number | null }).code };
    throw new Error(`unexpected frame ${f.type}`);
  });
}

const msg = (method: string, pad = 0) =>
  JSON.stringify({ jsonrpc: '2.0', method, params: { p: 'x'.repeat(pad) } }) + '\n';
const answer = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: {} }) + '\n';

describe('relay output log', () => {
  it('sends output as it comes while attached, and forgets what the daemon acknowledged', () => {
    const log = new OutputLog(1000);
    log.append(Buffer.from('a\nb'), false, 1);
    assert.deepEqual(decode(log.takeUnsent()), [{ out: 'a\nb' }]);
    log.append(Buffer.from('\n'), false, 2);
    assert.deepEqual(decode(log.takeUnsent()), [{ out: '\n' }]);
    assert.equal(log.sentEnd, 4);
    assert.equal(log.bytes, 4);
    log.ack(3);
    assert.equal(log.bytes, 1);
    assert.equal(log.acked, 3);
  });

  it('resends from the daemon’s own offset after a reconnect, then what came while no one was attached', () => {
    const log = new OutputLog(1000);
    log.append(Buffer.from('one\ntwo\n'), false, 1);
    log.takeUnsent();
    log.ack(4); // the daemon acknowledged "one\n" before the connection broke
    log.append(Buffer.from('three\n'), true, 2);
    // The daemon got "one\ntw" (6 bytes) before the break.
    assert.deepEqual(decode(log.resendFrom(6)!), [{ out: 'o\n' }]);
    assert.deepEqual(decode(log.takeUnsent()), [{ out: 'three\n' }]);
    assert.equal(log.resendFrom(2), null, 'an offset before what was acknowledged cannot be served');
  });

  it('while no one is attached, drops the oldest unsent whole messages past the bound and says exactly what', () => {
    const log = new OutputLog(300);
    log.append(Buffer.from(msg('session/update', 50)), false, 1);
    log.takeUnsent(); // sent, not acknowledged: never dropped
    const lines = [
      msg('session/update', 60),
      msg('session/update', 60),
      answer(7),
      msg('session/request_permission', 40),
      msg('session/update', 10),
    ];
    for (const [i, l] of lines.entries()) log.append(Buffer.from(l), true, 100 + i);
    const sentFirst = Buffer.byteLength(msg('session/update', 50));
    const kept = lines.slice(-2).join('');
    assert.ok(log.bytes <= 300, String(log.bytes));
    const seen = decode(log.takeUnsent());
    const droppedBytes = lines.slice(0, 3).reduce((n, l) => n + Buffer.byteLength(l), 0);
    assert.deepEqual(seen, [
      {
        lost: {
          bytes: droppedBytes,
          lines: 3,
          kinds: { 'session/update': 2, response: 1 },
          from: 101,
          to: 104,
          bound: 300,
        },
      },
      { out: kept },
    ]);
    assert.equal(
      lostText((seen[0] as { lost: LostSummary }).lost),
      `${droppedBytes} bytes in 3 messages (session/update ×2, response ×1)`,
    );
    // LOST counts 1 in the stream offset: a reconnect right after it resends neither it nor the output before.
    assert.equal(log.sentEnd, sentFirst + 1 + Buffer.byteLength(kept));
    assert.deepEqual(decode(log.resendFrom(sentFirst + 1)!), [{ out: kept }]);
  });

  it('a dropped line that continues one the daemon got the start of counts as a partial message', () => {
    const log = new OutputLog(80);
    log.append(Buffer.from('{"jsonrpc":"2.0","method":"session/upd'), false, 1);
    log.takeUnsent();
    log.append(Buffer.from(`ate"}\n${answer(1)}${answer(2)}`), true, 5);
    const seen = decode(log.takeUnsent());
    assert.equal(seen.length, 2);
    const lost = (seen[0] as { lost: LostSummary }).lost;
    assert.deepEqual(lost.kinds, { 'partial message': 1, response: 1 });
    assert.equal(lost.lines, 2);
    assert.deepEqual(seen[1], { out: answer(2) });
  });

  it('a message longer than the bound is dropped up to its end, and the stream goes on at the next line', () => {
    const log = new OutputLog(20);
    log.append(Buffer.from('x'.repeat(30)), true, 1);
    log.append(Buffer.from('y'.repeat(30)), true, 2);
    log.append(Buffer.from('z\nok\n'), true, 3);
    const seen = decode(log.takeUnsent());
    assert.deepEqual(seen, [
      { lost: { bytes: 62, lines: 1, kinds: { 'partial message': 1 }, from: 1, to: 3, bound: 20 } },
      { out: 'ok\n' },
    ]);
  });

  it('the exit follows the last output and is done once the daemon acknowledged it', () => {
    const log = new OutputLog(100);
    log.append(Buffer.from('bye\n'), true, 1);
    log.end({ code: 3, signal: null, at: 2, detached: true });
    assert.equal(log.hasUnsent, true);
    assert.deepEqual(decode(log.takeUnsent()), [{ out: 'bye\n' }, { exit: 3 }]);
    assert.equal(log.exitAcked, false);
    log.ack(4);
    assert.equal(log.exitAcked, false);
    log.ack(5);
    assert.equal(log.exitAcked, true);
  });
});
