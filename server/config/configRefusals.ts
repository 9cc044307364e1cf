// Every refusal of the config files (config.yaml, projects.yaml) and `svc config`, each
// message made here and nowhere else (docs/style.md §16). Reasons: shared/refusals/config.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { CONFIG_REFUSALS } from '../../shared/refusals/config';

const { usage, notFound } = refusalsOf(CONFIG_REFUSALS);

/** `why`: what is wrong and where (describeIssues, or the YAML parser's message prefixed with the file). */
export function invalidConfigError(why: string): SvcError<'invalidConfig'> {
  return usage('invalidConfig', why);
}

export function unknownProjectError(key: string): SvcError<'unknownProject'> {
  return notFound(
    'unknownProject',
    `unknown project '${key}' (see svc project list; add one with svc project add <key> <path>)`,
  );
}

export function unknownConfigKeyError(key: string, forms: readonly string[]): SvcError<'unknownConfigKey'> {
  return usage('unknownConfigKey', `unknown config key '${key}'; the settable keys are ${forms.join(', ')}`);
}

/** `why`: what is wrong with the value; `file`: the file shown as left unchanged. */
export function invalidConfigValueError(
  key: string,
  raw: string,
  why: string,
  file: string,
): SvcError<'invalidConfigValue'> {
  return usage('invalidConfigValue', `cannot set ${key} to '${raw}': ${why}; ${file} is unchanged`);
}
