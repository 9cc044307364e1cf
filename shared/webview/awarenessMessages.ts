// Messages of the Awareness rail webview. Host: extension/awareness/awarenessView.ts;
// page: webview/awarenessMain.ts. Who must stay in sync: those two files.
import type { ReadyMessage } from './viewMessages';

/** How the daemon connection looks, in words the page shows as is. */
export type DaemonLine =
  { state: 'connected'; text: string } | { state: 'connecting' | 'down' | 'noNode'; text: string };

export interface AwarenessCard {
  project: string;
  run: string;
  launcherId: number;
  launcherName: string;
  countsLine: string;
  latest: { at: number; text: string; kind: string };
  /** The run's spend against its cap (`$1.25 of $5.00 (25%)`), and how many lanes a cap stops. */
  spend: { spent: number; cap: number | null; text: string; reached: number };
  /** The run's landings waiting or running, one line each in queue order (extension/awareness/landingQueue.ts). */
  queue?: string[];
}

/** Host → view: the whole state (a snapshot; the host keeps only the newest one queued). */
export interface AwarenessState {
  type: 'state';
  daemon: DaemonLine;
  /** undefined while the daemon cannot say (down, or no runs method yet). */
  cards: AwarenessCard[] | undefined;
}

/** One lane of an expanded card, critics and verifiers nested under the builder they judge. */
export interface RunLaneView {
  convId: number;
  /** `builder i1 · api` */
  label: string;
  /** `#12 · working · NOT_YET · 2 defects` */
  description: string;
  activity: string;
  children: RunLaneView[];
}

/** Host → view: the lanes of a run, read once for an expand (never polled). */
export interface RunLanes {
  type: 'lanes';
  project: string;
  run: string;
  lanes: RunLaneView[] | null;
  /** Why the lanes could not be read. */
  problem: string | null;
}

export type AwarenessToView = AwarenessState | RunLanes;

/** View → host: open the conversation that launched a run (or a lane). */
export interface OpenLauncher {
  type: 'openConversation';
  convId: number;
  /** A double-click (or Enter): keep the tab; a click opens the preview tab. */
  keep: boolean;
}

/** View → host: a card was expanded; read its run's lanes once. */
export interface ExpandRun {
  type: 'expand';
  project: string;
  run: string;
}

export type AwarenessFromView = ReadyMessage | OpenLauncher | ExpandRun;
