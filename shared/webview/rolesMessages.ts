// Messages of the Roles panel. Host: extension/roles/rolesPanel.ts; page:
// webview/rolesMain.ts. Who must stay in sync: those two files and shared/protocol/config.ts.
import type { ModelChoices, RolesView } from '../protocol/config';
import type { ReadyMessage } from './viewMessages';

/** Host → view: everything the panel shows (a snapshot; the host keeps the newest queued). */
export interface RolesState {
  type: 'state';
  /** How the daemon connection is, in words shown as is; null while connected. */
  daemon: string | null;
  /** null until the first read, or while the daemon is down. */
  view: RolesView | null;
  /** Why the settings cannot be read right now (e.g. config.yaml does not parse). */
  problem: string | null;
  /** Model choices per harness asked about so far. */
  models: Record<string, ModelChoices>;
  /** The last write's outcome per key: a refusal's message, or null when it was accepted (at: when, ms). */
  results: Record<string, { ok: boolean; message: string | null; at: number }>;
}

export type RolesToView = RolesState;

/** View → host: set a key (value null removes it). The outcome comes back in `results`. */
export interface SetSetting {
  type: 'set';
  key: string;
  value: string | null;
}

/** View → host: the model choices of a harness are wanted (a model field got focus). */
export interface WantModels {
  type: 'models';
  harness: string;
}

export type RolesFromView = ReadyMessage | SetSetting | WantModels;
