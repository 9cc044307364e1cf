import * as assert from 'node:assert/strict';
import type { DeckRow } from '../../extension/commandDeck/deckModel';
import { harnessChoices } from '../../extension/doctor/harnessChoices';
import { startLaneFlow } from '../../extension/lanes/startLaneFlow';
import { facts, scripted } from '../helpers/startLaneScript';
import type { HarnessHealth } from '../../shared/protocol/doctor';

const health = (name: string, o: Partial<HarnessHealth> = {}): HarnessHealth => ({
  name,
  builtIn: true,
  command: `${name}-acp`,
  path: `/bin/${name}-acp`,
  installed: true,
  version: '1.2.3',
  auth: { needs: [], found: null },
  mode: 'default',
  used: false,
  ...o,
});

describe('harness pickers marked by the doctor (extension/doctor/harnessChoices.ts)', () => {
  it('marks a harness that is not installed, one without credentials, and leaves unknown ones plain', () => {
    const choices = harnessChoices(
      ['claude', 'codex', 'gemini', 'mine'],
      [
        health('claude', { auth: { needs: ['ANTHROPIC_API_KEY'], found: 'ANTHROPIC_API_KEY' } }),
        health('codex', { auth: { needs: ['CODEX_API_KEY', 'OPENAI_API_KEY'], found: null } }),
        health('gemini', { installed: false, path: null, version: null, command: 'gemini' }),
      ],
    );
    assert.deepEqual(choices, [
      { label: 'claude', description: 'v1.2.3', harness: 'claude', installed: true },
      {
        label: 'codex',
        description: 'v1.2.3 · $(key) no credentials (CODEX_API_KEY)',
        harness: 'codex',
        installed: true,
      },
      {
        label: 'gemini',
        description: '$(warning) not installed',
        detail: "gemini is not on the agents' PATH (svc: Doctor shows the fix)",
        harness: 'gemini',
        installed: false,
      },
      { label: 'mine', harness: 'mine', installed: null },
    ]);
    assert.deepEqual(harnessChoices(['script'], null), [{ label: 'script', harness: 'script', installed: null }]);
  });

  it('Start Lane asks for the harness before the model when it has choices; Default sends none', async () => {
    const rows: DeckRow[] = [
      { id: 1, name: 'root', title: 'root', kind: 'root', parentId: null, activity: 'idle', model: 'big' },
    ];
    const run = async (answer: string) => {
      const p = scripted(['builder', 'r1', 'api', answer, 'm', 'Write the brief in an editor']);
      const f = facts({
        rows,
        selected: rows[0],
        harnesses: harnessChoices(['claude', 'gemini'], [health('claude'), health('gemini', { installed: false })]),
        models: { builder: 'm' },
      });
      const r = await startLaneFlow(p, f);
      return { params: r.kind === 'draft' ? r.params : r, seen: p.seen };
    };
    const gemini = await run('gemini');
    assert.equal(gemini.seen[3], 'svc: Start Lane (4/6) pick [Default|claude|gemini] active=Default back');
    assert.deepEqual(gemini.params, {
      parent: '1',
      role: 'builder',
      run: 'r1',
      key: 'api',
      model: 'm',
      harness: 'gemini',
      noWait: true,
    });
    const dflt = await run('Default');
    assert.equal((dflt.params as { harness?: string }).harness, undefined);
    assert.equal(dflt.seen[0].startsWith('svc: Start Lane (1/6)'), true);
  });
});
