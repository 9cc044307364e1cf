// The authority table: every method of the protocol and every HTTP route of the daemon has
// a row (a new method without one fails here, and the daemon refuses to start), and the
// rules judge agents as documented: a person may do everything, an agent acts on itself
// and its descendants, posts what its role exists to post, and is refused the rest with a
// message naming the rule and who may do it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AUTHORITY, ruleOf, whoMay } from '../../server/authority/authorityTable';
import { authorize } from '../../server/authority/authorize';
import type { AuthorityDeps } from '../../server/authority/authorize';
import { PERSON, resolveCaller } from '../../server/authority/caller';
import type { Caller, CallerDeps } from '../../server/authority/caller';
import { ancestorsOf, isAncestor, isSelfOrDescendant } from '../../server/authority/lineage';
import type { ConversationRow } from '../../server/conversations/conversationService';
import { SvcError } from '../../shared/errors';
import { REPO } from '../helpers/scratch';

function protocolMethods(): string[] {
  const dir = path.join(REPO, 'shared', 'protocol');
  const out: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every protocol file, by name at run time
    const mod = require(path.join(dir, file)) as Record<string, { kind?: unknown; method?: unknown } | null>;
    for (const d of Object.values(mod))
      if (d && typeof d === 'object' && d.kind === 'request' && typeof d.method === 'string') out.push(d.method);
  }
  return out.sort();
}

/** Every `app.http.route('METHOD', '/path'` in the daemon's sources. */
function httpRoutes(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts'))
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/\.http\.route\(\s*'([A-Z]+)',\s*'([^']+)'/g))
          out.push(`${m[1]} ${m[2]}`);
    }
  };
  walk(path.join(REPO, 'server'));
  return out.sort();
}

describe('authority: one row per method and route', () => {
  it('every request method of shared/protocol has a row', () => {
    const methods = protocolMethods();
    assert.ok(methods.length > 40, `found only ${methods.length} methods: the enumeration is broken`);
    assert.deepEqual(
      methods.filter((m) => !ruleOf(m)),
      [],
      'add a row to server/authority/authorityTable.ts (and docs/authority.md)',
    );
  });

  it('every HTTP route of the daemon has a row', () => {
    const routes = httpRoutes();
    assert.ok(routes.length >= 6, `found only ${routes.length} routes`);
    assert.deepEqual(
      routes.filter((r) => !ruleOf(r)),
      [],
    );
  });

  it('no row names a method or route that does not exist', () => {
    const known = new Set([...protocolMethods(), ...httpRoutes()]);
    assert.deepEqual(
      Object.keys(AUTHORITY).filter((k) => !known.has(k)),
      [],
    );
  });

  it('docs/authority.md shows every row with the same rule', () => {
    const doc = fs.readFileSync(path.join(REPO, 'docs', 'authority.md'), 'utf8');
    const rows = new Map<string, string>();
    for (const m of doc.matchAll(/^\|\s*`([^`]+)`\s*\|([^|]+)\|/gm)) rows.set(m[1], m[2].trim());
    const wrong = Object.entries(AUTHORITY)
      .filter(([k, r]) => rows.get(k) !== whoMay(r))
      .map(([k, r]) => `| \`${k}\` | ${whoMay(r)} |`);
    assert.deepEqual(wrong, [], 'docs/authority.md rows to add or correct');
  });
});

// A small world: the person's root #1 launched orchestrator #2 and builder #3; #2 launched
// builder #4, whose successor is #5 (a handoff); #6 is another root; #7 and #8 are the work
// agent and review parent of WEB-1, #9 a review lane of it.
const row = (
  id: number,
  name: string,
  kind: string,
  parentId: number | null,
  extra: Partial<ConversationRow> = {},
): ConversationRow => ({ id, name, kind, parentId, issueId: null, extraEnv: null, ...extra }) as ConversationRow;
const ROWS = [
  row(1, 'root', 'root', null),
  row(2, 'r-lead-orchestrator-i1', 'lane', 1),
  row(3, 'r-a-builder-i1', 'lane', 1),
  row(4, 'r-b-builder-i1', 'lane', 2),
  row(5, 'r-b-builder-i1-h1', 'successor', 4),
  row(6, 'other', 'root', null),
  row(7, 'agent-web-1', 'agent', null, { issueId: 'WEB-1' }),
  row(8, 'agent-web-1-review', 'agent', null, {
    issueId: 'WEB-1',
    extraEnv: { SVC_REVIEW_RUN: 'r1', SVC_REVIEW_LANE: 'parent' },
  }),
  row(9, 'agent-web-1-review-security', 'agent', 8, {
    issueId: 'WEB-1',
    extraEnv: { SVC_REVIEW_RUN: 'r1', SVC_REVIEW_LANE: 'security' },
  }),
];
const get = (id: number) => ROWS.find((r) => r.id === id);
const resolve = (ref: string) => {
  const r = ROWS.find((x) => `#${x.id}` === ref || String(x.id) === ref || x.name === ref);
  if (!r) throw new Error(`no conversation ${ref}`);
  return r;
};
const deps: AuthorityDeps = { get, resolve, issueId: (ref) => ref.toUpperCase() };
const agent = (id: number): Caller => ({ kind: 'agent', conv: get(id)! });
const allowed = (c: Caller, key: string, params: Record<string, unknown> = {}) => authorize(deps, key, c, params);
const refused = (c: Caller, key: string, params: Record<string, unknown>, message: string) =>
  assert.throws(
    () => allowed(c, key, params),
    (e: unknown) => SvcError.is(e) && e.kind === 'refused' && e.message === message,
  );

describe('authority: lineage', () => {
  it('walks launchers and successor sources up to a root', () => {
    assert.deepEqual(
      ancestorsOf(get, get(5)!).map((r) => r.id),
      [4, 2, 1],
    );
    assert.equal(isAncestor(get, 2, get(5)!), true);
    assert.equal(isAncestor(get, 3, get(4)!), false);
    assert.equal(isAncestor(get, 5, get(5)!), false, 'nobody is its own ancestor');
    assert.equal(isSelfOrDescendant(get, 5, get(5)!), true);
  });

  it('a cycle in hand-edited rows ends the walk', () => {
    const a = row(20, 'a', 'lane', 21);
    const b = row(21, 'b', 'lane', 20);
    const g = (id: number) => [a, b].find((r) => r.id === id);
    assert.deepEqual(
      ancestorsOf(g, a).map((r) => r.id),
      [21],
    );
  });
});

describe('authority: the rules', () => {
  it('a person may call every row', () => {
    for (const key of Object.keys(AUTHORITY)) allowed(PERSON, key, { lane: '4', conv: '1', issue: 'WEB-1', name: '4' });
  });

  it('an agent stops and reaps itself and its descendants (their lanes and successors), never a sibling or an ancestor', () => {
    for (const target of ['2', '4', '#5', 'r-b-builder-i1']) allowed(agent(2), 'lanes/stop', { lane: target });
    allowed(agent(4), 'lanes/reap', { lane: '4' });
    allowed(agent(2), 'POST /api/lanes/:name/reap', { name: '5' });
    refused(
      agent(4),
      'lanes/stop',
      { lane: '3' },
      'an agent may only stop lanes it launched (their lanes and successors too) or itself; #3 (r-a-builder-i1) was launched by #1 (root) — ask the person or your launcher',
    );
    refused(
      agent(4),
      'lanes/reap',
      { lane: '2' },
      'an agent may only reap lanes it launched (their lanes and successors too) or itself; #2 (r-lead-orchestrator-i1) was launched by #1 (root) — ask the person or your launcher',
    );
    refused(
      agent(4),
      'conversations/stop',
      { conv: '1' },
      'an agent may only stop conversations it launched (their lanes and successors too) or itself; #1 (root) was started by the person — ask the person or your launcher',
    );
    refused(
      agent(3),
      'conversations/archive',
      { conv: '5' },
      'an agent may only archive conversations it launched (their lanes and successors too) or itself; #5 (r-b-builder-i1-h1) continues #4 (r-b-builder-i1) — ask the person or your launcher',
    );
  });

  it('an agent answers the questions of its lanes, never its own', () => {
    allowed(agent(2), 'conversations/answer', { conv: '4' });
    refused(
      agent(4),
      'conversations/answer',
      { conv: '4' },
      'an agent may only answer the questions of conversations it launched (their lanes and successors too), never itself; #4 (r-b-builder-i1) is you — ask the person or your launcher',
    );
  });

  it('person-only methods refuse every agent and name the person', () => {
    refused(
      agent(2),
      'daemon/stop',
      {},
      'an agent may not stop or restart the daemon (svc daemon stop / restart): only the person may; you are agent #2 (r-lead-orchestrator-i1) — ask the person',
    );
    for (const key of [
      'config/set',
      'projects/add',
      'pr/merge',
      'pr/review',
      'pr/create',
      'conversations/new',
      'issues/start',
      'review/abort',
    ]) {
      assert.throws(
        () => allowed(agent(7), key),
        (e: unknown) => SvcError.is(e, 'personOnly'),
        key,
      );
    }
  });

  it('the review parent posts and waits for its own issue only; the work agent finishes its own', () => {
    allowed(agent(8), 'review/post', { issue: 'web-1' });
    allowed(agent(8), 'review/wait', {});
    refused(
      agent(8),
      'review/post',
      { issue: 'web-2' },
      'only the review parent of WEB-2 (or the person) may post the verdict (svc review post); agent #8 (agent-web-1-review) is not it — ask the person',
    );
    refused(
      agent(9),
      'review/post',
      { issue: 'WEB-1' },
      'only the review parent of WEB-1 (or the person) may post the verdict (svc review post); agent #9 (agent-web-1-review-security) is not it — ask the person',
    );
    refused(
      agent(7),
      'review/post',
      { issue: 'WEB-1' },
      'only the review parent of WEB-1 (or the person) may post the verdict (svc review post); agent #7 (agent-web-1) is not it — ask the person',
    );
    allowed(agent(7), 'issues/done', {});
    allowed(agent(7), 'review/request', { issue: 'WEB-1' });
    refused(
      agent(7),
      'issues/done',
      { issue: 'WEB-2' },
      'only the work agent of WEB-2 (or the person) may finish the issue (svc done); agent #7 (agent-web-1) is not it — ask the person',
    );
    refused(
      agent(8),
      'issues/done',
      {},
      'only the work agent of WEB-1 (or the person) may finish the issue (svc done); agent #8 (agent-web-1-review) is not it — ask the person',
    );
    refused(
      agent(3),
      'issues/done',
      {},
      'only the work agent of an issue (or the person) may finish the issue (svc done); agent #3 (r-a-builder-i1) is not it — ask the person',
    );
  });

  it('reads, launches and reports are open to agents (the methods judge launch and report themselves)', () => {
    for (const key of [
      'lanes/list',
      'conversations/log',
      'pr/show',
      'lanes/start',
      'lanes/report',
      'lanes/wait',
      'config/get',
      'GET /api/lanes',
    ])
      allowed(agent(4), key);
  });

  it('a method without a row is refused to everyone', () => {
    assert.throws(
      () => allowed(PERSON, 'lanes/new-thing'),
      (e: unknown) => SvcError.is(e) && /lanes\/new-thing has no row in the authority table/.test(e.message),
    );
  });
});

describe('authority: who is calling', () => {
  const proven: number[] = [];
  const callers: CallerDeps = {
    resolve,
    prove: (r, token) => {
      if (token !== `t${r.id}`) throw new Error(`not proven: ${r.id}`);
      proven.push(r.id);
    },
  };

  it('no claim is a person; a claim is an agent once its credential proves it', () => {
    assert.deepEqual(resolveCaller(callers, {}), PERSON);
    assert.equal((resolveCaller(callers, { conversation: '4', token: 't4' }) as { conv: ConversationRow }).conv.id, 4);
    assert.equal((resolveCaller(callers, { param: '#4', token: 't4' }) as { conv: ConversationRow }).conv.id, 4);
    assert.throws(() => resolveCaller(callers, { conversation: '4', token: 't1' }), /not proven: 4/);
  });

  it('the envelope and a method param naming different conversations are refused', () => {
    assert.throws(
      () => resolveCaller(callers, { conversation: '4', param: '1', token: 't4' }),
      (e: unknown) =>
        SvcError.is(e, 'callerMismatch') &&
        e.message ===
          'this request comes from conversation #4 (r-b-builder-i1) but names #1 (root) as its caller; an agent acts only as itself',
    );
  });

  it("a connection of one agent is that agent: with no claim, with its own, never another's", () => {
    const before = proven.length;
    assert.equal((resolveCaller(callers, {}, { conversation: 4 }) as { conv: ConversationRow }).conv.id, 4);
    assert.equal(
      (resolveCaller(callers, { conversation: '4' }, { conversation: 4 }) as { conv: ConversationRow }).conv.id,
      4,
    );
    assert.equal(proven.length, before, 'the connection needs no credential');
    assert.throws(
      () => resolveCaller(callers, { conversation: '1', token: 't1' }, { conversation: 4 }),
      (e: unknown) =>
        SvcError.is(e, 'callerMismatch') &&
        e.message ===
          'this connection belongs to agent #4 (r-b-builder-i1) but the request says it comes from #1 (root); an agent acts only as itself: leave SVC_CONVERSATION as svc set it',
    );
  });
});
