import * as assert from 'node:assert/strict';
import type { DeckRow } from '../../extension/commandDeck/deckModel';
import { harnessChoices } from '../../extension/doctor/harnessChoices';
import { startLaneFlow } from '../../extension/lanes/startLaneFlow';
import type { PickItem, Prompter } from '../../extension/lanes/startLaneFlow';
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
      [health('claude', { auth: { needs: ['ANTHROPIC_API_KEY'], found: 'ANTHROPIC_API_KEY' } }), health('codex', { auth: { needs: ['CODEX_API_KEY', 'OPENAI_API_KEY'], found: null } }), health('gemini', { installed: false, path: null, version: null, command: 'gemini' })],
    );
    assert.deepEqual(choices, [
      { label: 'claude', description: 'v1.2.3', harness: 'claude', installed: true },
      { label: 'codex', description: 'v1.2.3 · $(key) no credentials (CODEX_API_KEY)', harness: 'codex', installed: true },
      { label: 'gemini', description: '$(warning) not installed', detail: "gemini is not on the agents' PATH (svc: Doctor shows the fix)", harness: 'gemini', installed: false },
      { label: 'mine', harness: 'mine', installed: null },
    ]);
    assert.deepEqual(harnessChoices(['script'], null), [{ label: 'script', harness: 'script', installed: null }]);
  });

  it('Start Lane asks for the harness last when it has choices; Default sends none', async () => {
    const rows: DeckRow[] = [{ id: 1, name: 'root', title: 'root', kind: 'root', parentId: null, activity: 'idle', model: 'big' }];
    const run = async (answer: string) => {
      const answers = ['builder', 'r1', 'api', 'Type the brief', 'do it', 'm', answer];
      const seen: string[] = [];
      const p: Prompter = {
        async pick<T extends PickItem>(items: T[], o: { title: string; active?: T }) {
          seen.push(`${o.title} [${items.map((i) => `${i.label}${i.description ? ` (${i.description})` : ''}`).join('|')}] active=${o.active?.label ?? '-'}`);
          const want = answers.shift();
          return items.find((i) => i.label === want);
        },
        async input() {
          return answers.shift();
        },
        async openFile() {
          return undefined;
        },
      };
      const r = await startLaneFlow(p, rows[0], rows, harnessChoices(['claude', 'gemini'], [health('claude'), health('gemini', { installed: false })]));
      return { params: r && 'params' in r ? r.params : r, seen };
    };
    const gemini = await run('gemini');
    assert.equal(gemini.seen[gemini.seen.length - 1], "svc: Start Lane (7/7) [Default (the project's harness for builders, else the launcher's)|claude (v1.2.3)|gemini ($(warning) not installed)] active=Default");
    assert.deepEqual(gemini.params, { parent: '1', role: 'builder', run: 'r1', key: 'api', prompt: 'do it', noWait: true, model: 'm', harness: 'gemini' });
    const dflt = await run('Default');
    assert.equal((dflt.params as { harness?: string }).harness, undefined);
    assert.equal(dflt.seen[0].startsWith('svc: Start Lane (2/7)'), true);
  });
});
