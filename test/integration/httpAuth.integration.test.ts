// The daemon's HTTP listener: 127.0.0.1 only, bearer token from server.json, Host check
// against DNS rebinding, no CORS, and every error a JSON {error, reason} body.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as os from 'node:os';
import { discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** node:http, not fetch: fetch will not send a Host header of our choosing. */
function request(
  port: number,
  opts: { method?: string; path: string; host?: string; auth?: string; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: opts.host ?? `127.0.0.1:${port}` };
    if (opts.auth !== undefined) headers.Authorization = opts.auth;
    // Explicit: node:http sends a GET body without one, which no server can frame.
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body));
    const req = http.request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) });
          } catch {
            reject(new Error(`not JSON (${res.statusCode}): ${text}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('HTTP listener: token, Host check, JSON errors', function () {
  let s: Scratch;
  let svc: Svc;
  let port: number;
  let token: string;
  let pid: number;

  before(async () => {
    s = makeScratch('httpAuth');
    ({ svc } = frozenDist(s));
    assert.equal((await svc(['daemon', 'status'])).code, 0);
    ({ httpPort: port, token, pid } = discoveryOf(s));
  });
  after(async () => disposeAll(s, svc));

  const unauthorized = {
    error: 'missing or wrong bearer token (the token is in SVC_HOME/server.json)',
    reason: 'unauthorized',
  };

  it('GET /api/health with the right token → 200 with the daemon facts', async () => {
    const r = await request(port, { path: '/api/health', auth: `Bearer ${token}` });
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const b = r.body as { ok: boolean; pid: number; httpPort: number; svcHome: string };
    assert.equal(b.ok, true);
    assert.equal(b.pid, pid);
    assert.equal(b.httpPort, port);
    assert.equal(b.svcHome, s.svcHome);
    assert.equal(r.headers['access-control-allow-origin'], undefined, 'no CORS');
  });

  it('Host localhost:<port> is accepted too, and the scheme in any case (RFC 7235)', async () => {
    const r = await request(port, { path: '/api/health', auth: `Bearer ${token}`, host: `localhost:${port}` });
    assert.equal(r.status, 200);
    const lower = await request(port, { path: '/api/health', auth: `bearer ${token}` });
    assert.equal(lower.status, 200);
  });

  it('no token → 401 {error, reason}', async () => {
    const r = await request(port, { path: '/api/health' });
    assert.equal(r.status, 401);
    assert.deepEqual(r.body, unauthorized);
    assert.equal(r.headers['www-authenticate'], 'Bearer');
  });

  it('wrong token → 401, also one of the right length, a bare token or another scheme', async () => {
    const wrongSameLength = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    for (const auth of [
      `Bearer ${wrongSameLength}`,
      'Bearer nope',
      `Bearer ${token}x`,
      token,
      `Basic ${token}`,
      'Bearer ',
      `Bearer  ${token}`,
    ]) {
      const r = await request(port, { path: '/api/health', auth });
      assert.equal(r.status, 401, auth);
      assert.deepEqual(r.body, unauthorized);
    }
  });

  it('a foreign Host → 403 even with the right token (DNS rebinding)', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      '127.0.0.1',
      `127.0.0.1:${port + 1}`,
      `localhost.evil.example:${port}`,
      `[::1]:${port}`,
    ]) {
      const r = await request(port, { path: '/api/health', auth: `Bearer ${token}`, host });
      assert.equal(r.status, 403, host);
      assert.deepEqual(r.body, {
        error: `refused Host '${host}': only 127.0.0.1:${port} and localhost:${port} are served`,
        reason: 'badHost',
      });
    }
  });

  it('an unknown path → 404 {error, reason}; a wrong method → 405', async () => {
    const r = await request(port, { path: '/api/nothing-here', auth: `Bearer ${token}` });
    assert.equal(r.status, 404);
    assert.deepEqual(r.body, { error: 'no route /api/nothing-here', reason: 'noRoute' });
    const root = await request(port, { path: '/', auth: `Bearer ${token}` });
    assert.equal(root.status, 404);
    assert.deepEqual(root.body, { error: 'no route /', reason: 'noRoute' });
    const m = await request(port, { method: 'DELETE', path: '/api/health', auth: `Bearer ${token}` });
    assert.equal(m.status, 405);
    assert.deepEqual(m.body, { error: 'DELETE is not allowed on /api/health', reason: 'methodNotAllowed' });
  });

  it('without a token every path answers 401, known or not, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/'],
      ['DELETE', '/api/health'],
      ['PUT', '/api/lanes'],
      ['GET', '/api/lanes/x/y/z'],
    ]) {
      const r = await request(port, { method, path });
      assert.equal(r.status, 401, `${method} ${path}`);
      assert.deepEqual(r.body, unauthorized);
      assert.equal(r.headers['www-authenticate'], 'Bearer');
    }
  });

  it('a bad percent-encoding in a path parameter → 400 {error, reason}, with or without a body', async () => {
    for (const [method, path, segment, name] of [
      ['GET', '/api/lanes/%E0%A4%A', '%E0%A4%A', 'name'],
      ['GET', '/api/lanes/%', '%', 'name'],
      ['POST', '/api/lanes/%ZZ/reap', '%ZZ', 'name'],
      ['GET', '/api/agents/%ZZ/output', '%ZZ', 'name'],
    ]) {
      const r = await request(port, {
        method,
        path,
        auth: `Bearer ${token}`,
        body: method === 'POST' ? '{}' : undefined,
      });
      assert.equal(r.status, 400, path);
      assert.deepEqual(r.body, {
        error: `the path segment '${segment}' (${name}) is not valid percent-encoding; encode it with encodeURIComponent`,
        reason: 'badPath',
      });
    }
    const noToken = await request(port, { path: '/api/lanes/%' });
    assert.equal(noToken.status, 401, 'the token is checked first');
    assert.equal((await request(port, { path: '/api/health', auth: `Bearer ${token}` })).status, 200, 'still serving');
  });

  it('a body over the route limit → 413 {error, reason} that the client gets to read', async () => {
    const big = 'a'.repeat(3 * 1024 * 1024);
    const tooLarge = { error: 'request body exceeds 1048576 bytes', reason: 'bodyTooLarge' };
    const declared = await request(port, { path: '/api/health', auth: `Bearer ${token}`, body: big });
    assert.equal(declared.status, 413);
    assert.deepEqual(declared.body, tooLarge);
    const chunked = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'GET',
          path: '/api/health',
          agent: false,
          headers: { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${token}`, 'Transfer-Encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 3; i++) req.write(big.slice(0, 1024 * 1024));
      req.end();
    });
    assert.equal(chunked.status, 413);
    assert.deepEqual(chunked.body, tooLarge);
    assert.equal((await request(port, { path: '/api/health', auth: `Bearer ${token}` })).status, 200, 'still serving');
  });

  it('listens on 127.0.0.1 only', async () => {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) return; // no non-loopback interface to try on this machine
    const refused = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: external.address, port, path: '/api/health', timeout: 3000 }, () => resolve(false));
      req.on('error', () => resolve(true));
      req.on('timeout', () => {
        req.destroy();
        resolve(true);
      });
    });
    assert.equal(refused, true, `port ${port} answered on ${external.address}`);
  });
});
