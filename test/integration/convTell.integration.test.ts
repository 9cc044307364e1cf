// `svc tell`: delivered at once when idle, queued in order mid-turn; 100 in a burst all
// arrive, in order.
import * as assert from 'node:assert/strict';
import { conversationsTell } from '../../shared/protocol/conversations';
import { convScratch, rpc, script } from './convSupport';
import type { ConvScratch } from './convSupport';

const reply = (text: string) => `script agent (m1): no svc-script block in: ${text}`;
const endsWith = (text: string) => new RegExp(`${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

describe('svc tell', function () {
  this.timeout(90_000);
  let s: ConvScratch;

  before(async () => {
    s = await convScratch('conv-tell');
  });
  after(async () => s?.dispose());

  it('is delivered at once to an idle agent', async () => {
    const id = await s.start('hello', ['--title', 'idle one']);
    await s.waitActivity(id, 'idle');
    assert.equal(await s.ok(['tell', 'idle-one', 'are you there']), `Delivered to #${id} (idle-one)\n`);
    await s.waitActivity(id, 'idle');
    assert.match(await s.log(id), endsWith(`> are you there\n${reply('are you there')}\n`));
  });

  it('to a working agent is queued and delivered after its turn', async () => {
    const id = await s.start(script('- sleep: 2000', '- say: first turn done'), ['--title', 'busy one']);
    await s.waitActivity(id, 'working');
    assert.equal(await s.ok(['tell', `conv-busy-one`, 'then', 'this']), `Queued for #${id} (busy-one): 1 ahead\n`);
    assert.equal((await s.show(id)).queued, 1);
    await s.waitActivity(id, 'idle', 20_000);
    assert.match(await s.log(id), endsWith(`\nfirst turn done\n> then this\n${reply('then this')}\n`));
  });

  it('100 tells sent in a burst mid-turn all arrive, in order', async () => {
    const id = await s.start(script('- sleep: 1500'), ['--title', 'burst']);
    await s.waitActivity(id, 'working');
    const c = await rpc(s);
    try {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          c.sendRequest<{ delivered: string; ahead: number }>(conversationsTell.method, {
            conv: String(id),
            text: `tell ${i + 1}`,
          }),
        ),
      );
      assert.deepEqual(
        results.map((r) => [r.delivered, r.ahead]),
        Array.from({ length: 100 }, (_, i) => ['queued', i + 1]),
      );
    } finally {
      c.end();
    }
    await s.waitActivity(id, 'idle', 60_000);
    const info = await s.show(id);
    assert.equal(info.queued, 0);
    const lines = (await s.log(id, 200)).trimEnd().split('\n');
    const expected = Array.from({ length: 100 }, (_, i) => [`> tell ${i + 1}`, reply(`tell ${i + 1}`)]).flat();
    assert.deepEqual(lines, expected);
  });

  it('to a stopped conversation is refused with the way to resume it', async () => {
    const id = await s.start('x', ['--title', 'gone']);
    await s.waitActivity(id, 'idle');
    await s.ok(['conv', 'stop', String(id)]);
    const r = await s.svc(['tell', 'gone', 'hello?']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `conversation #${id} (gone) is not running (stopped); resume it with svc conv resume #${id}\n`,
    );
  });

  it('to an unknown conversation is refused', async () => {
    const r = await s.svc(['tell', 'nobody', 'hi']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "no conversation 'nobody' (give #id, id, name or conv-<name>; see svc conv list)\n");
  });
});
