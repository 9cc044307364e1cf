// The RPC server resolves every request's caller once, before the method runs, from the
// envelope the shim adds (callerConversation, callerToken) or from the socket it came in
// on: a socket listened with a connection identity is that agent whatever the request
// says. The method sees the resolved caller, its `caller` param is overwritten with it, and
// an unauthorised request never reaches the method.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { z } from 'zod';
import type { Caller, CallerClaim, ConnectionIdentity } from '../../server/authority/caller';
import type { ConversationRow } from '../../server/conversations/conversationService';
import { RpcServer } from '../../server/rpc/rpcServer';
import { rpcOver, RpcError } from '../../shared/client/rpcClient';
import type { RpcConnection } from '../../shared/client/rpcClient';
import { request } from '../../shared/protocol/rpc';
import { REPO } from '../helpers/scratch';

describe('rpc: the caller gate', () => {
  const dir = path.join(REPO, '.scratch', `unit-rpcgate-${process.pid}`);
  const shared = path.join(dir, 'shared.sock');
  const agentSock = path.join(dir, 'agent-7.sock');
  const who = request(
    'test/who',
    z.object({ caller: z.string().optional() }).strict(),
    z.object({ caller: z.union([z.number(), z.string()]), param: z.string().nullable() }),
  );
  const claims: { claim: CallerClaim; connection?: ConnectionIdentity }[] = [];
  const server = new RpcServer({ name: 'test', version: '0' });
  const open: RpcConnection[] = [];
  let calls = 0;
  let stopAgentSocket: () => Promise<void>;

  const connect = async (socketPath: string): Promise<RpcConnection> => {
    const socket = net.connect(socketPath);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const c = rpcOver(socket);
    open.push(c);
    return c;
  };
  const agent = (id: number): Caller => ({ kind: 'agent', conv: { id, name: `a${id}` } as ConversationRow });

  before(async () => {
    fs.mkdirSync(dir, { recursive: true });
    server.handle(who, (p, ctx) => {
      calls++;
      return { caller: ctx.caller.kind === 'agent' ? ctx.caller.conv.id : 'person', param: p.caller ?? null };
    });
    server.guard({
      resolve: (claim, connection) => {
        claims.push({ claim, connection });
        if (connection) return agent(connection.conversation);
        return claim.conversation ? agent(Number(claim.conversation)) : { kind: 'person' };
      },
      authorize: (_method, caller) => {
        if (caller.kind === 'agent' && caller.conv.id === 13) throw new Error('not you');
      },
    });
    await server.listen(shared);
    stopAgentSocket = await server.listen(agentSock, { conversation: 7 });
  });
  after(async () => {
    for (const c of open) c.dispose();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("takes the envelope off the params, resolves the caller from it, and fills the method's caller param", async () => {
    const c = await connect(shared);
    assert.deepEqual(await c.sendRequest(who.method, { callerConversation: '5', callerToken: 't' }), {
      caller: 5,
      param: '5',
    });
    assert.deepEqual(claims.at(-1), {
      claim: { conversation: '5', token: 't', param: undefined },
      connection: undefined,
    });
    assert.deepEqual(await c.sendRequest(who.method, {}), { caller: 'person', param: null });
  });

  it('a connection of an agent socket is that agent, with no envelope at all', async () => {
    const c = await connect(agentSock);
    assert.deepEqual(await c.sendRequest(who.method, {}), { caller: 7, param: '7' });
    assert.deepEqual(claims.at(-1), {
      claim: { conversation: undefined, token: undefined, param: undefined },
      connection: { conversation: 7 },
    });
  });

  it('a refused caller never reaches the method', async () => {
    const c = await connect(shared);
    const before = calls;
    const e = await c.sendRequest(who.method, { callerConversation: '13' }).then(
      () => assert.fail('answered'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof RpcError);
    assert.match(e.message, /not you/);
    assert.equal(calls, before);
  });

  it("stopping one agent's socket drops its clients and leaves the shared socket serving", async () => {
    const c = await connect(agentSock);
    const closed = new Promise<void>((r) => c.onClose(() => r()));
    await stopAgentSocket();
    await closed;
    assert.equal(fs.existsSync(agentSock), false);
    assert.deepEqual(await (await connect(shared)).sendRequest(who.method, {}), { caller: 'person', param: null });
  });
});
