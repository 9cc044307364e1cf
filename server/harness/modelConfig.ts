// Model and effort through session/set_config_option, finding the options by category
// (`model`, `thought_level`); the option list can change after a set, so each set uses
// the list it returned. Per-profile fallbacks: legacy session/set_model, effort ids.
import type { ClientContext, SessionConfigOption } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { Profile } from './profiles';
import { modelRefused, SpawnError } from './spawnErrors';

type SelectOption = { value: string; name: string };

function choices(o: SessionConfigOption): SelectOption[] {
  if (o.type !== 'select') return [];
  const opts = (o as { options: unknown[] }).options ?? [];
  const out: SelectOption[] = [];
  for (const x of opts as { value?: string; name?: string; options?: SelectOption[] }[]) {
    if (x.options) out.push(...x.options);
    else if (typeof x.value === 'string') out.push({ value: x.value, name: x.name ?? x.value });
  }
  return out;
}

/** The option value for `wanted`: an exact value, else a case-insensitive value or name. */
export function matchValue(o: SessionConfigOption, wanted: string): string {
  const list = choices(o);
  if (list.some((c) => c.value === wanted)) return wanted;
  const lower = wanted.toLowerCase();
  return list.find((c) => c.value.toLowerCase() === lower || c.name.toLowerCase() === lower)?.value ?? wanted;
}

export function findOption(
  options: SessionConfigOption[],
  category: string,
  ids: string[] = [],
): SessionConfigOption | undefined {
  return options.find((o) => o.category === category) ?? options.find((o) => ids.includes(o.id));
}

export interface ConfigResult {
  notices: string[];
}

export async function applyModelAndEffort(
  agent: ClientContext,
  sessionId: string,
  initial: SessionConfigOption[],
  profile: Profile,
  model: string,
  effort: string | null,
): Promise<ConfigResult> {
  const notices: string[] = [];
  let options = initial;
  const set = async (o: SessionConfigOption, value: string, what: 'model' | 'effort') => {
    const v = matchValue(o, value);
    if (o.currentValue === v) return;
    try {
      const res = await agent.request('session/set_config_option', { sessionId, configId: o.id, value: v });
      if (res?.configOptions) options = res.configOptions;
    } catch (e) {
      if (e instanceof RequestError)
        throw modelRefused(
          profile,
          what,
          value,
          e.message,
          choices(o).map((c) => c.value),
        );
      throw e;
    }
  };

  const modelOpt = findOption(options, 'model', ['model']);
  if (modelOpt) {
    try {
      await set(modelOpt, model, 'model');
    } catch (e) {
      // A model the option refuses (a full id such as claude-sonnet-4-5) already reached
      // the agent through the profile's model variable at spawn; the option stays as it is.
      if (!(e instanceof SpawnError && profile.modelEnv && !offers(modelOpt, model))) throw e;
    }
  }
  if (!modelOpt && profile.modelFallback === 'set_model') {
    try {
      await agent.request('session/set_model', { sessionId, modelId: model });
    } catch (e) {
      if (!(e instanceof RequestError)) throw e;
      if (e.code === -32601)
        notices.push(`harness '${profile.name}' offers no model option; model '${model}' was not applied`);
      else throw modelRefused(profile, 'model', model, e.message, []);
    }
  }

  return applyEffort();

  async function applyEffort(): Promise<ConfigResult> {
    if (effort) {
      const effortOpt = findOption(options, 'thought_level', profile.effortIds);
      if (effortOpt) await set(effortOpt, effort, 'effort');
      else
        notices.push(`harness '${profile.name}' offers no effort option over ACP; effort '${effort}' was not applied`);
    }
    return { notices };
  }
}

/** True when the option lists `wanted` as a value or name (case-insensitively). */
export function offers(o: SessionConfigOption, wanted: string): boolean {
  const lower = wanted.toLowerCase();
  return choices(o).some((c) => c.value.toLowerCase() === lower || c.name.toLowerCase() === lower);
}
