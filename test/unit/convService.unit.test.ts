// The conversation service's row logic without processes: names, references, the
// effective launcher, archive rules, tell refusals, counts. The store is in memory.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { App } from '../../server/app';
import { ConfigStore } from '../../server/config/configStore';
import { ConversationService } from '../../server/conversations/conversationService';
import type { CreateOptions } from '../../server/conversations/conversationService';
import type { HostLink } from '../../server/hosts/hostLink';
import { conversationMigrations } from '../../server/conversations/migrations';
import { storeMigrations } from '../../server/store/migrations';
import { openDb } from '../../server/store/db';
import { SvcError } from '../../shared/errors';
import { homePaths } from '../../shared/svcHome';
import type { SvcReason } from '../../shared/refusals/reasons';

function service(
  now = { t: 1_000_000 },
  home = '/nonexistent/.svc',
): { svc: ConversationService; notified: unknown[] } {
  const notified: unknown[] = [];
  const paths = homePaths(home);
  const app = {
    paths,
    db: openDb(':memory:', [storeMigrations, conversationMigrations]),
    config: new ConfigStore(paths.projects, paths.config),
    distDir: '/nonexistent/dist',
    notify: (p: unknown) => notified.push(p),
    onStop: () => undefined,
    now: () => now.t,
  } as unknown as App;
  // Row logic only: nothing here runs an agent on another host.
  return { svc: new ConversationService(app, {} as HostLink), notified };
}

const base: CreateOptions = {
  kind: 'root',
  title: 'Fix the login bug',
  cwd: '/tmp/x',
  harness: 'script',
  model: 'm',
  prompt: 'go',
};
const refusedWith = (reason: SvcReason, message: string) => (e: unknown) =>
  SvcError.is(e, reason) && e.message === message;

describe('conversation service rows', () => {
  it('names are unique slugs of the title; a given name is checked', () => {
    const { svc } = service();
    assert.equal(svc.insert(base).name, 'fix-the-login-bug');
    assert.equal(svc.insert(base).name, 'fix-the-login-bug-2');
    assert.equal(svc.insert({ ...base, title: '1234' }).name, 'c1234');
    assert.equal(svc.insert({ ...base, name: 'run1-a-builder-i1', kind: 'lane' }).name, 'run1-a-builder-i1');
    assert.throws(
      () => svc.insert({ ...base, name: 'run1-a-builder-i1' }),
      refusedWith('nameTaken', "conversation name 'run1-a-builder-i1' is taken by #4"),
    );
    assert.throws(
      () => svc.insert({ ...base, name: 'conv-x' }),
      refusedWith(
        'badName',
        "conversation name 'conv-x' must not start with 'conv-' (that prefix is how names are referenced)",
      ),
    );
  });

  it('an unknown harness is refused before any row exists', () => {
    const { svc } = service();
    assert.throws(
      () => svc.insert({ ...base, harness: 'nope' }),
      (e: unknown) => SvcError.is(e, 'unknownHarness'),
    );
    assert.equal(svc.list().length, 0);
  });

  it('resolve accepts #id, id, name and conv-<name>', () => {
    const { svc } = service();
    const r = svc.insert({ ...base, name: 'alpha' });
    for (const ref of ['#1', '1', 'alpha', 'conv-alpha', 1]) assert.equal(svc.resolve(ref).id, r.id);
    assert.throws(
      () => svc.resolve('#9'),
      refusedWith('unknownConversation', "no conversation '#9' (give #id, id, name or conv-<name>; see svc conv list)"),
    );
  });

  it('insert works inside a caller transaction and rolls back with it', () => {
    const { svc } = service();
    const db = (svc as unknown as { app: App }).app.db;
    assert.throws(() =>
      db.transaction(() => {
        svc.insert(base);
        throw new Error('lane refused');
      })(),
    );
    assert.equal(svc.list().length, 0);
  });

  it('the effective launcher follows successors up to a lane or a root', () => {
    const { svc } = service();
    const root = svc.insert({ ...base, name: 'root' });
    const lane = svc.insert({ ...base, name: 'lane', kind: 'lane', parentId: root.id });
    const s1 = svc.insert({ ...base, name: 's1', kind: 'successor', parentId: lane.id });
    const s2 = svc.insert({ ...base, name: 's2', kind: 'successor', parentId: s1.id });
    const r1 = svc.insert({ ...base, name: 'r1', kind: 'successor', parentId: root.id });
    assert.equal(svc.effectiveLauncher(s2.id).name, 'lane');
    assert.equal(svc.effectiveLauncher(r1.id).name, 'root');
    assert.equal(svc.effectiveLauncher(lane.id).name, 'lane');
  });

  it('activity of a row never started: starting for 3 minutes, then stopped; facts are all false', () => {
    const now = { t: 1_000_000 };
    const { svc } = service(now);
    const r = svc.insert(base);
    assert.deepEqual(svc.facts(r.id), { alive: false, working: false, needsYou: false });
    assert.equal(svc.activity(r), 'starting');
    assert.deepEqual(svc.counts(), { conversations: 1, live: 1 });
    now.t += 3 * 60 * 1000;
    assert.equal(svc.activity(svc.get(r.id)!), 'stopped');
    assert.deepEqual(svc.counts(), { conversations: 1, live: 0 });
  });

  it('recordSpawnError makes failed-to-start and fires events; stop and archive of a never-started row', async () => {
    const { svc, notified } = service();
    const events: string[] = [];
    for (const e of ['changed', 'spawnError', 'ended'] as const)
      svc.events.on(e, (id: number) => events.push(`${e} ${id}`));
    const a = svc.insert(base);
    svc.recordSpawnError(a.id, 'worktree could not be made');
    assert.equal(svc.activity(svc.get(a.id)!), 'failed-to-start');
    assert.deepEqual(events, ['changed 1', 'spawnError 1', 'changed 1']);
    const b = svc.insert(base);
    assert.deepEqual(await svc.stop(b.id), { stopped: true });
    assert.equal(svc.get(b.id)!.exitStatus, 'stopped before it started');
    svc.archive(b.id);
    assert.equal(svc.activity(svc.get(b.id)!), 'stopped');
    assert.deepEqual(
      svc.list().map((r) => r.id),
      [1],
    );
    assert.deepEqual(
      svc.list({ archived: true }).map((r) => r.id),
      [1, 2],
    );
    assert.ok(notified.some((n) => JSON.stringify(n) === JSON.stringify({ topic: 'conversations', id: 2 })));
  });

  it('a start announces the row once (its insert), a resume once; the spawn itself changes nothing a reader sees', async () => {
    // Starts read the home (the agents' credentials): a scratch one.
    const scratch = path.join(__dirname, '..', '..', '.scratch', `unit-conv-start-${process.pid}`);
    const home = path.join(scratch, '.svc');
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    try {
      const { svc } = service({ t: 1_000_000 }, home);
      const changes: number[] = [];
      svc.events.on('changed', (id: number) => changes.push(id));
      // The folder does not exist: each start ends in a spawn error, after the calls return.
      const a = svc.create({ ...base, cwd: '/nonexistent/k' });
      assert.deepEqual(changes, [a.id], 'create');
      assert.equal(await svc.waitStarted(a.id, 10_000), 'failed');
      const b = svc.insert({ ...base, cwd: '/nonexistent/k' });
      changes.length = 0;
      svc.start(b.id);
      assert.deepEqual(changes, [], 'start of an inserted row');
      assert.equal(await svc.waitStarted(b.id, 10_000), 'failed');
      changes.length = 0;
      svc.resume(b.id);
      assert.deepEqual(changes, [b.id], 'resume');
      assert.equal(await svc.waitStarted(b.id, 10_000), 'failed');
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('tell guards run first; tell to a conversation without a running agent is refused', () => {
    const { svc } = service();
    const r = svc.insert({ ...base, name: 'critic' });
    svc.addTellGuard((row, { force }) => {
      if (row.name === 'critic' && !force)
        throw new SvcError('refused', 'judgeReported', 'critic already reported done; --force overrides');
    });
    assert.throws(
      () => svc.tell(r.id, 'hi'),
      refusedWith('judgeReported', 'critic already reported done; --force overrides'),
    );
    assert.throws(
      () => svc.tell(r.id, 'hi', { force: true }),
      refusedWith(
        'notRunning',
        'conversation #1 (critic) is not running (starting); resume it with svc conv resume #1',
      ),
    );
  });

  it('waitStarted resolves on events, and times out', async () => {
    const { svc } = service();
    const r = svc.insert(base);
    const p = svc.waitStarted(r.id, 5000);
    svc.recordSpawnError(r.id, 'nope');
    assert.equal(await p, 'failed');
    const q = svc.insert(base);
    assert.equal(await svc.waitStarted(q.id, 20), 'timeout');
  });
});
