// What a harness session announces while it starts and takes turns: the supervisor turns
// every `alive` and `state` into a change that each listener reads the store for and every
// client is notified of, so each must say something new. A real script agent (run from
// source) behind the real local transport; the session's events are recorded in order.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { HarnessSession } from '../../server/harness/harnessSession';
import type { SessionEvents } from '../../server/harness/harnessSession';
import { localAgent } from '../../server/harness/localAgent';
import type { Profile } from '../../server/harness/profiles';

const REPO = path.resolve(__dirname, '..', '..');

const profile: Profile = {
  name: 'script',
  command: process.execPath,
  args: ['--require', 'tsx/cjs', path.join(REPO, 'server', 'harness', 'script', 'scriptAgentMain.ts')],
  env: {},
  modelFallback: 'none',
  effortIds: [],
  preferFreshSession: false,
  scripts: {},
  modes: {},
  state: [],
};

describe('harness session: one announced change per change', () => {
  it('the first prompt is announced with alive, each later send once, and turn ends once (idle) before a queued send', async () => {
    const trace: string[] = [];
    let session!: HarnessSession;
    const facts = () => (session.working ? 'working' : session.idleSince !== undefined ? 'idle' : 'busy');
    let turns = 0;
    let wake = () => undefined as void;
    const events: SessionEvents = {
      transcript: (kind) => {
        if (kind === 'prompt' || kind === 'turn_end') trace.push(kind);
      },
      alive: () => trace.push(`alive (${facts()})`),
      spawnError: (m) => trace.push(`spawnError ${m}`),
      ended: () => undefined,
      state: () => trace.push(`state (${facts()})`),
      turnEnded: () => {
        turns++;
        wake();
      },
      usage: () => undefined,
    };
    session = new HarnessSession(
      {
        profile,
        cwd: REPO,
        prepared: Promise.resolve({ env: { ...process.env }, writableDirs: [] }),
        model: 'script',
        effort: null,
        configFileShown: 'config.yaml',
        clientVersion: 'test',
        firstPrompt: 'first',
        permissions: 'auto',
        agent: localAgent,
      },
      events,
      () => Date.now(),
    );
    const turnsDone = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited for ${n} turns: ${trace.join(', ')}`)), 30_000);
        wake = () => {
          if (turns >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        wake();
      });
    try {
      await session.run();
      await turnsDone(1);
      session.tell('second');
      session.tell('third'); // queued behind the second
      await turnsDone(3);
      // The confirmed start (the first answer to the first prompt) is a change of its own.
      assert.deepEqual(trace, [
        'alive (working)',
        'prompt',
        'state (working)',
        'turn_end',
        'state (idle)',
        'state (working)', // tell: sent at once
        'state (working)', // tell: queued
        'prompt',
        'turn_end',
        'state (idle)',
        'state (working)', // the queued one sent
        'prompt',
        'turn_end',
        'state (idle)',
      ]);
    } finally {
      await session.stop({ timeoutMs: 5000 });
    }
  });
});
