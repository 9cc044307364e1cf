// One-key YAML edits keep every other byte of a hand-written file (comments, spacing,
// blank lines, quoting); the document API decides the meaning.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import YAML from 'yaml';
import { editYaml } from '../../server/config/yamlEdit';

const CONFIG = `# svc settings (hand-written)
harnesses:
  claude:
    env: { IS_SANDBOX: "1" }    # root needs this

roles:
  review:
    mode: quick      # quick until the convoy is tuned
    # reviewer models
    sub:
      security:
        model: 'sonnet'   # cheap enough
      correctness:
        model: opus

# end of file
`;

describe('config: one-key YAML edits', () => {
  it('replaces a scalar and keeps every other byte', () => {
    const r = editYaml(CONFIG, ['roles', 'review', 'mode'], 'full');
    assert.equal(r.how, 'splice');
    assert.equal(r.text, CONFIG.replace('mode: quick      #', 'mode: full      #'));
  });

  it('adds a key to an existing block map at its indentation', () => {
    const r = editYaml(CONFIG, ['roles', 'review', 'sub', 'performance', 'model'], 'opus');
    assert.equal(r.how, 'splice');
    assert.equal(
      r.text,
      CONFIG.replace('        model: opus\n', '        model: opus\n      performance:\n        model: opus\n'),
    );
  });

  it('adds a nested key under the root', () => {
    const r = editYaml('# only a comment\n', ['roles', 'review', 'mode'], 'none');
    assert.equal(r.text, '# only a comment\nroles:\n  review:\n    mode: none\n');
    assert.equal(editYaml('', ['roles', 'review', 'mode'], 'full').text, 'roles:\n  review:\n    mode: full\n');
  });

  it('follows the file’s own indentation step', () => {
    const text = 'projects:\n    web:\n        path: /w\n';
    const r = editYaml(text, ['projects', 'web', 'gauntlet', 'roles', 'builder', 'model'], 'm1');
    assert.equal(
      r.text,
      'projects:\n    web:\n        path: /w\n        gauntlet:\n            roles:\n                builder:\n                    model: m1\n',
    );
  });

  it('fills a key that has nothing under it', () => {
    const text = 'projects:\n  web:\n    path: /w\n    gauntlet:   # later\n  api:\n    path: /a\n';
    const r = editYaml(text, ['projects', 'web', 'gauntlet', 'roles', 'critic', 'effort'], 'high');
    assert.equal(r.how, 'splice');
    assert.equal(
      r.text,
      'projects:\n  web:\n    path: /w\n    gauntlet:   # later\n      roles:\n        critic:\n          effort: high\n  api:\n    path: /a\n',
    );
  });

  it('removes a key and the maps it leaves empty, keeping the rest', () => {
    const r = editYaml(CONFIG, ['roles', 'review', 'sub', 'security', 'model'], undefined);
    assert.equal(r.how, 'splice');
    assert.equal(r.text, CONFIG.replace("      security:\n        model: 'sonnet'   # cheap enough\n", ''));
    const all = editYaml('a: 1\nroles:\n  review:\n    mode: full\nb: 2\n', ['roles', 'review', 'mode'], undefined);
    assert.equal(all.text, 'a: 1\nb: 2\n');
  });

  it('never prunes above keepDepth', () => {
    const text = 'projects:\n  web:\n    path: /w\n    gauntlet:\n      roles:\n        builder:\n          model: m\n';
    const r = editYaml(text, ['projects', 'web', 'gauntlet', 'roles', 'builder', 'model'], undefined, 2);
    assert.equal(r.text, 'projects:\n  web:\n    path: /w\n');
  });

  it('reports no change for an unset of an absent key or a set to the same value', () => {
    assert.deepEqual(editYaml(CONFIG, ['roles', 'review', 'model'], undefined), {
      text: CONFIG,
      data: editYaml(CONFIG, ['x'], undefined).data,
      changed: false,
      how: 'none',
    });
    assert.equal(editYaml(CONFIG, ['roles', 'review', 'mode'], 'quick').changed, false);
  });

  it('quotes values YAML would otherwise read as something else', () => {
    const r = editYaml('roles:\n  review:\n    model: a\n', ['roles', 'review', 'model'], 'true');
    assert.equal(r.text, 'roles:\n  review:\n    model: "true"\n');
    assert.deepEqual(r.data, { roles: { review: { model: 'true' } } });
  });

  it('falls back to the document API for flow collections, keeping comments', () => {
    const text = '# top\nroles: { review: { mode: quick } }  # flow\n';
    const r = editYaml(text, ['roles', 'review', 'model'], 'opus');
    assert.equal(r.how, 'render');
    assert.deepEqual(r.data, { roles: { review: { mode: 'quick', model: 'opus' } } });
    assert.match(r.text, /^# top\n/);
    assert.match(r.text, /# flow/);
  });
});

describe('config: one-key YAML edits, any sequence', () => {
  const BASE = `# top comment
harnesses: {}   # none yet

roles:
  review:
    mode: quick   # keep
    # lanes below
    sub:
      security:
        model: s1
# bottom comment
`;
  const KEYS = [
    ['roles', 'review', 'mode'],
    ['roles', 'review', 'model'],
    ['roles', 'review', 'effort'],
    ['roles', 'review', 'sub', 'security', 'model'],
    ['roles', 'review', 'sub', 'security', 'harness'],
    ['roles', 'review', 'sub', 'performance', 'model'],
  ];

  it('means what the same edits to plain data mean, and keeps the file’s first and last comments', () => {
    const op = fc.record({
      key: fc.integer({ min: 0, max: KEYS.length - 1 }),
      value: fc.option(fc.constantFrom('a', 'b-2', 'true', 'x y', "it's", '#hash'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        let text = BASE;
        let model = YAML.parse(BASE) as Record<string, unknown>;
        for (const o of ops) {
          const r = editYaml(text, KEYS[o.key], o.value, 0);
          text = r.text;
          model = applyPlain(model, KEYS[o.key], o.value);
          assert.deepEqual(YAML.parse(text) ?? {}, model);
        }
        assert.ok(text.startsWith('# top comment\n'), text);
        assert.ok(text.includes('# bottom comment'), text);
      }),
      { numRuns: 300 },
    );
  });
});

/** The reference: set or delete in plain data, removing maps left empty (as svc config set does). */
function applyPlain(
  data: Record<string, unknown>,
  keyPath: string[],
  value: string | undefined,
): Record<string, unknown> {
  const copy = structuredClone(data);
  if (value !== undefined) {
    let at = copy;
    for (const k of keyPath.slice(0, -1)) {
      if (typeof at[k] !== 'object' || at[k] === null) at[k] = {};
      at = at[k] as Record<string, unknown>;
    }
    at[keyPath[keyPath.length - 1]] = value;
    return copy;
  }
  const chain: Record<string, unknown>[] = [copy];
  for (const k of keyPath.slice(0, -1)) {
    const next = chain[chain.length - 1][k];
    if (typeof next !== 'object' || next === null) return copy;
    chain.push(next as Record<string, unknown>);
  }
  delete chain[chain.length - 1][keyPath[keyPath.length - 1]];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i]).length === 0) delete chain[i - 1][keyPath[i - 1]];
    else break;
  }
  return copy;
}
