// Harness choices for the New Conversation and Start Lane pickers, marked with the
// doctor's facts (doctor/run {only: harnesses}): one that is not installed says so with
// its fix, one without credentials says that. Pure (no vscode) so unit tests run it.
import type { HarnessHealth } from '../../shared/protocol/doctor';

export interface HarnessChoice {
  label: string;
  description?: string;
  detail?: string;
  harness: string;
  installed: boolean | null;
}

/** `names` in their order (built-ins, then profiles); `health` null when the daemon could not say. */
export function harnessChoices(names: readonly string[], health: readonly HarnessHealth[] | null): HarnessChoice[] {
  return names.map((name) => {
    const h = health?.find((x) => x.name === name);
    if (!h) return { label: name, harness: name, installed: null };
    if (!h.installed)
      return {
        label: name,
        description: '$(warning) not installed',
        detail: `${h.command} is not on the agents' PATH (svc: Doctor shows the fix)`,
        harness: name,
        installed: false,
      };
    const parts = [h.version ? `v${h.version}` : 'installed'];
    if (h.auth.needs.length && !h.auth.found) parts.push(`$(key) no credentials (${h.auth.needs[0]})`);
    return { label: name, description: parts.join(' · '), harness: name, installed: true };
  });
}
