// The Roles panel's field shapes, apart from fields.ts so the budget box (budgetField.ts),
// which fields.ts builds, reads them without importing the file that imports it.
import type { ConfigEntry } from '../../shared/protocol/config';
import type { SelectKind } from './choices';

export interface FieldContext {
  /** Sends a write: a string sets, null removes. */
  set(key: string, value: string | null): void;
  /** Asks for a harness's model choices (when a model box gets focus). */
  wantModels(harness: string): void;
  /** Harness names for harness selects. */
  harnesses: string[];
  /** config.yaml's hosts for host selects ("this machine" is the blank option). */
  hosts: string[];
  /** The last write's refusal per key. */
  refusals: Record<string, string>;
  /** Keys whose write was accepted a moment ago: the field says Saved. */
  saved: ReadonlySet<string>;
  /** The models each harness offers, where its list was fetched. */
  models: Record<string, readonly string[]>;
  /** A refusal made on the page, before anything was sent (a model no id can be). */
  refuseHere(key: string, message: string): void;
}

export interface FieldSpec {
  label: string;
  entry: ConfigEntry;
  kind: SelectKind | 'model' | 'budget';
  /** For a model field: the harness whose models are offered (null: not known yet). */
  harness?: string | null;
}
