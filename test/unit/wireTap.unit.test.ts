// The ACP client over an agent's pipes (connectAgent): the tap sees every message in wire
// order; the notifications only the tap acts on (session/update, elicitation/complete) never
// reach the SDK, which would validate each against its schema and do nothing with it, while
// requests still do (a permission request is answered through the ask handler).
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { AgentTransport } from '../../server/harness/agentTransport';
import { connectAgent } from '../../server/harness/sessionStartup';

describe('wire tap: what the SDK sees', () => {
  it('taps every message in order, keeps tap-only notifications from the SDK, and passes requests on', async () => {
    const stdin = new PassThrough(); // daemon → agent
    const stdout = new PassThrough(); // agent → daemon
    const proc = { stdin, stdout } as unknown as AgentTransport;
    const seen: string[] = [];
    const asked: unknown[] = [];
    // The SDK reports a notification that fails its schema on console.error: a malformed
    // session/update it validated would show here.
    const errors: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...a: unknown[]) => void errors.push(a);
    const conn = connectAgent(
      proc,
      (dir, msg) => {
        const m = msg as { method?: string; id?: number | string };
        seen.push(`${dir} ${m.method ?? 'response'}${m.id !== undefined ? ` ${String(m.id)}` : ''}`);
      },
      (id) => {
        asked.push(id);
        return Promise.resolve({ outcome: { outcome: 'cancelled' } });
      },
    );
    const answers: unknown[] = [];
    let buf = '';
    stdin.on('data', (d: Buffer) => {
      buf += d.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        answers.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    try {
      const send = (m: object) => stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
      send({ method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk' } } });
      send({ method: 'session/update', params: { malformed: true } });
      send({ method: 'elicitation/complete', params: { nonsense: 1 } });
      send({
        id: 7,
        method: 'session/request_permission',
        params: {
          sessionId: 's',
          toolCall: { toolCallId: 't1', title: 'run' },
          options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }],
        },
      });
      const deadline = Date.now() + 5000;
      while (answers.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(seen, [
        'in session/update',
        'in session/update',
        'in elicitation/complete',
        'in session/request_permission 7',
        'out response 7',
      ]);
      assert.deepEqual(asked, [7]);
      assert.deepEqual(answers, [{ jsonrpc: '2.0', id: 7, result: { outcome: { outcome: 'cancelled' } } }]);
      assert.deepEqual(errors, [], 'the SDK validated a notification only the tap acts on');
    } finally {
      console.error = consoleError;
      stdout.end();
      await conn.closed.catch(() => undefined);
    }
  });
});
