// A model id the adapter's model option does not list (claude's option has only aliases)
// reaches the agent through the profile's model variable; the option is then left alone
// instead of the launch being refused. Without a model variable, the refusal stands.
import * as assert from 'node:assert/strict';
import type { ClientContext, SessionConfigOption } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import { applyModelAndEffort } from '../../server/harness/modelConfig';
import { resolveProfile } from '../../server/harness/profiles';
import { ConfigFile } from '../../shared/config';

const CLAUDE_OPTIONS = [
  {
    id: 'model',
    name: 'Model',
    category: 'model',
    type: 'select',
    currentValue: 'default',
    options: ['default', 'opus', 'sonnet', 'haiku'].map((v) => ({ value: v, name: v })),
  },
  {
    id: 'effort',
    name: 'Effort',
    category: 'thought_level',
    type: 'select',
    currentValue: 'medium',
    options: ['low', 'medium', 'high'].map((v) => ({ value: v, name: v })),
  },
] as unknown as SessionConfigOption[];

function agent(sent: { configId: string; value: string }[]): ClientContext {
  return {
    request: async (method: string, params: { configId: string; value: string }) => {
      assert.equal(method, 'session/set_config_option');
      if (!CLAUDE_OPTIONS.find((o) => o.id === params.configId)) throw new RequestError(-32602, 'no such option');
      const o = CLAUDE_OPTIONS.find((x) => x.id === params.configId) as unknown as { options: { value: string }[] };
      if (!o.options.some((c) => c.value === params.value))
        throw new RequestError(-32602, `Invalid value for config option ${params.configId}: ${params.value}`);
      sent.push(params);
      return { configOptions: CLAUDE_OPTIONS };
    },
  } as unknown as ClientContext;
}

describe('model ids beyond the adapter option (claude)', () => {
  const claude = resolveProfile('claude', ConfigFile.parse({}), '/d', '~/.svc/config.yaml');
  it('claude passes the model as ANTHROPIC_MODEL', () => assert.equal(claude.modelEnv, 'ANTHROPIC_MODEL'));
  it('a full id leaves the model option alone and still sets effort', async () => {
    const sent: { configId: string; value: string }[] = [];
    const r = await applyModelAndEffort(agent(sent), 's1', CLAUDE_OPTIONS, claude, 'claude-sonnet-4-5', 'high');
    assert.deepEqual(sent, [{ sessionId: 's1', configId: 'effort', value: 'high' }]);
    assert.deepEqual(r.notices, []);
  });
  it('an alias the option lists is set through the option', async () => {
    const sent: { configId: string; value: string }[] = [];
    await applyModelAndEffort(agent(sent), 's1', CLAUDE_OPTIONS, claude, 'Opus', null);
    assert.deepEqual(sent, [{ sessionId: 's1', configId: 'model', value: 'opus' }]);
  });
  it('without a model variable an unlisted model is refused with the list', async () => {
    const plain = { ...claude, modelEnv: undefined };
    await assert.rejects(
      applyModelAndEffort(agent([]), 's1', CLAUDE_OPTIONS, plain, 'claude-sonnet-4-5', null),
      /model 'claude-sonnet-4-5' refused: .*available: default, opus, sonnet, haiku/,
    );
  });
});
