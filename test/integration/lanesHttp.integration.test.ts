// The lane HTTP routes: launch, list with filters, one lane; refusals are 4xx JSON.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { CallerCredentials } from '../../server/conversations/callerCredential';

describe('lanes: HTTP routes', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let base: string;
  let token: string;

  before(async () => {
    s = makeScratch('lanes-http');
    w = await laneWorld(s);
    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as {
      httpPort: number;
      token: string;
    };
    base = `http://127.0.0.1:${d.httpPort}`;
    token = d.token;
  });
  after(async () => s.dispose());

  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('launches a lane with POST /api/lanes and reads it back', async () => {
    const brief = writeBrief(w.briefs, 'idle.md', [{ say: 'hello' }]);
    const created = await call('POST', '/api/lanes', {
      parent: String(w.rootId),
      run: 'web',
      key: 'api',
      role: 'builder',
      model: 'm',
      harness: 'script',
      brief,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const lane = created.body as unknown as LaneRecord;
    assert.equal(lane.name, 'web-api-builder-i1');
    assert.ok(['starting', 'idle', 'working'].includes(lane.activity));
    assert.equal(lane.git?.branch, 'web/api');
    assert.equal(lane.git?.dirty, false);

    const listed = await call('GET', '/api/lanes?run=web');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body.lanes as LaneRecord[]).map((l) => l.name),
      ['web-api-builder-i1'],
    );
    assert.deepEqual(((await call('GET', '/api/lanes?run=other')).body.lanes as LaneRecord[]).length, 0);
    assert.deepEqual(
      ((await call('GET', `/api/lanes?parent=${w.rootId}&key=api`)).body.lanes as LaneRecord[]).length,
      1,
    );

    const one = await call('GET', '/api/lanes/conv-web-api-builder-i1');
    assert.equal(one.status, 200);
    assert.equal((one.body as unknown as LaneRecord).id, lane.id);
    const cli = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'web', '--json']))).stdout) as LaneRecord[];
    assert.equal(cli[0].activity, (one.body as unknown as LaneRecord).activity);
  });

  it('refuses bodies of the wrong shape with 400 and names the field', async () => {
    const r = await call('POST', '/api/lanes', {
      parent: String(w.rootId),
      run: 'web',
      key: 'x',
      role: 'wizard',
      model: 'm',
      prompt: 'p',
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.reason, 'badBody');
    assert.match(String(r.body.error), /^bad request: role: /);
    const extra = await call('POST', '/api/lanes', {
      parent: String(w.rootId),
      run: 'web',
      key: 'x',
      role: 'builder',
      model: 'm',
      prompt: 'p',
      force: true,
    });
    assert.equal(extra.status, 400);
    const notJson = await fetch(base + '/api/lanes', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: '{nope',
    });
    assert.equal(notJson.status, 400);
    assert.deepEqual(await notJson.json(), { error: 'the request body is not valid JSON', reason: 'badJson' });
  });

  it('a body naming a caller conversation must carry its credential (409 otherwise, nothing launched)', async () => {
    const before = JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
    const launch = {
      caller: String(w.rootId),
      run: 'web',
      key: 'as-root',
      role: 'builder',
      model: 'm',
      harness: 'script',
      prompt: 'p',
    };
    const bare = await call('POST', '/api/lanes', launch);
    assert.equal(bare.status, 409);
    assert.equal(bare.body.reason, 'callerNotProven');
    assert.match(
      String(bare.body.error),
      new RegExp(
        `^this request says it comes from conversation #${w.rootId} \\(.+\\) \\(\\$SVC_CONVERSATION\\) but carries no credential`,
      ),
    );
    const forged = await call('POST', '/api/lanes', {
      ...launch,
      callerToken: new CallerCredentials(s.svcHome).tokenFor(w.rootId + 1),
    });
    assert.equal(forged.status, 409);
    assert.match(String(forged.body.error), /carries the credential of another conversation/);
    assert.deepEqual(JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout), before);
    const proven = await call('POST', '/api/lanes', {
      ...launch,
      callerToken: new CallerCredentials(s.svcHome).tokenFor(w.rootId),
    });
    assert.equal(proven.status, 201, JSON.stringify(proven.body));
  });

  it('answers a refused launch with 409 and the reason, and an unknown lane with 404', async () => {
    const r = await call('POST', '/api/lanes', {
      parent: String(w.rootId),
      run: 'web',
      key: 'x',
      role: 'critic',
      model: 'm',
      prompt: 'p',
    });
    assert.equal(r.status, 409);
    assert.deepEqual(r.body, {
      error: 'a critic needs --for <builder key>: the builder it judges',
      reason: 'criticWithoutFor',
    });
    const missing = await call('GET', '/api/lanes/nope');
    assert.equal(missing.status, 404);
    assert.equal(typeof missing.body.error, 'string');
  });
});
