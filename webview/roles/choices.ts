// The options of a Roles panel select, pure (no DOM, unit-tested): first the blank option,
// which says what leaving the key unset means (`unset`, `default (quick)`, `inherit (…)`,
// or for a role's host `this machine`), then the choices — an enum's values, the harness
// profiles, or the hosts of config.yaml — and last a value set by hand that the list does
// not know, so it still shows (and can be replaced).
import type { ConfigEntry } from '../../shared/protocol/config';

export type SelectKind = 'enum' | 'harness' | 'host';

export interface Choice {
  value: string;
  text: string;
}

/** The entry holds its own value (not one it inherits or a default). */
export const isOwn = (e: ConfigEntry): boolean => e.from === e.key;

export function selectChoices(
  e: ConfigEntry,
  kind: SelectKind,
  lists: { harnesses: string[]; hosts: string[] },
): Choice[] {
  const blank =
    kind === 'host'
      ? 'this machine'
      : e.source === 'default'
        ? `default (${e.value})`
        : e.value !== null && !isOwn(e)
          ? `inherit (${e.value})`
          : 'unset';
  const values = kind === 'harness' ? lists.harnesses : kind === 'host' ? lists.hosts : (e.choices ?? []);
  const out: Choice[] = [{ value: '', text: blank }, ...values.map((v) => ({ value: v, text: v }))];
  if (isOwn(e) && e.value !== null && !values.includes(e.value)) {
    out.push({ value: e.value, text: kind === 'host' ? `${e.value} (not under hosts: in config.yaml)` : e.value });
  }
  return out;
}
