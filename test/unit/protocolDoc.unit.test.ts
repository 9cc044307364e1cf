// docs/protocol.md must list every method defined in shared/protocol/*.ts, and must have
// been looked at whenever a method's params or result changed. The methods are found by
// importing every module there and collecting the `.method` of each exported
// request/notification def, so a new file or a new export is covered without edits here.
// For the shapes, the doc keeps a fingerprint of each method's params and result (their
// JSON Schema, hashed): a changed schema fails here until its row and fingerprint are
// updated together (rust-analyzer keeps such a hash of its protocol file in a tidy check).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { REPO } from '../helpers/scratch';

const PROTOCOL_DIR = path.join(REPO, 'shared', 'protocol');
const DOC = path.join(REPO, 'docs', 'protocol.md');

interface Def {
  def: { params: z.ZodType; result?: z.ZodType };
  file: string;
  name: string;
  kind: 'request' | 'notification';
  method: string;
}

function protocolDefs(): Def[] {
  const defs: Def[] = [];
  for (const file of fs
    .readdirSync(PROTOCOL_DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every protocol file, by name at run time
    const mod = require(path.join(PROTOCOL_DIR, file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      const d = value as { kind?: unknown; method?: unknown; params: z.ZodType; result?: z.ZodType } | null;
      if (
        d &&
        typeof d === 'object' &&
        (d.kind === 'request' || d.kind === 'notification') &&
        typeof d.method === 'string'
      ) {
        defs.push({ def: d, file, name, kind: d.kind, method: d.method });
      }
    }
  }
  return defs;
}

const hash = (schema: z.ZodType, io: 'input' | 'output'): string =>
  createHash('sha256')
    .update(JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any' })))
    .digest('hex')
    .slice(0, 8);

/** `method params-hash result-hash` per method, sorted: the lines of the doc's fingerprint block. */
function fingerprints(defs: Def[]): string[] {
  const lines = new Set(
    defs.map((d) => `${d.method} ${hash(d.def.params, 'input')} ${d.def.result ? hash(d.def.result, 'output') : '-'}`),
  );
  return [...lines].sort();
}

const FENCE_OPEN = '```text protocol-fingerprints';

describe('docs/protocol.md lists every protocol method', () => {
  const defs = protocolDefs();
  const doc = fs.readFileSync(DOC, 'utf8');

  it('finds the methods (the collection itself works)', () => {
    const methods = defs.map((d) => d.method);
    for (const m of ['daemon/status', 'daemon/stop', 'svc/changed', 'projects/add', 'projects/list'])
      assert.ok(methods.includes(m), m);
  });

  it('every method appears in docs/protocol.md as `method`', () => {
    const missing = defs
      .filter((d) => !doc.includes('`' + d.method + '`'))
      .map((d) => `${d.method} (${d.kind} ${d.name} in shared/protocol/${d.file})`);
    assert.deepEqual(missing, [], `add these to docs/protocol.md:\n  ${missing.join('\n  ')}`);
  });

  it('no method name is defined twice', () => {
    const seen = new Map<string, Def>();
    const twice: string[] = [];
    for (const d of defs) {
      const first = seen.get(d.method);
      // The same def exported under two names is one definition, not two.
      if (first && first.def !== d.def) twice.push(`${d.method}: ${first.file}:${first.name} and ${d.file}:${d.name}`);
      if (!first) seen.set(d.method, d);
    }
    assert.deepEqual(twice, []);
  });

  it('method names are <domain>/<verb>', () => {
    const bad = defs.filter((d) => !/^[a-z][a-zA-Z]*\/[a-z][a-zA-Z]*$/.test(d.method)).map((d) => d.method);
    assert.deepEqual(bad, []);
  });

  it("has each method's params and result fingerprint: a changed shape means its row was reviewed", () => {
    const start = doc.indexOf(FENCE_OPEN);
    assert.ok(start >= 0, `docs/protocol.md has no ${FENCE_OPEN} block`);
    const body = doc.slice(start + FENCE_OPEN.length, doc.indexOf('```', start + FENCE_OPEN.length)).trim();
    const documented = new Map(body.split('\n').map((l) => [l.split(' ')[0], l] as const));
    const expected = fingerprints(defs);
    const stale = expected.filter((l) => documented.get(l.split(' ')[0]) !== l).map((l) => l.split(' ')[0]);
    const gone = [...documented.keys()].filter((m) => !expected.some((l) => l.startsWith(`${m} `)));
    assert.deepEqual(
      { stale, gone },
      { stale: [], gone: [] },
      `the params or result of these methods changed: update their rows in docs/protocol.md, then its fingerprint block to:\n${FENCE_OPEN}\n${expected.join('\n')}\n\`\`\``,
    );
  });
});
