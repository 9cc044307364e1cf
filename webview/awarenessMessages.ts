// Messages of the Awareness rail webview. Host: extension/awareness/awarenessView.ts;
// page: webview/awarenessMain.ts. Who must stay in sync: those two files.
import type { ReadyMessage } from './common/messages';

/** How the daemon connection looks, in words the page shows as is. */
export type DaemonLine = { state: 'connected'; text: string } | { state: 'connecting' | 'down' | 'noNode'; text: string };

export interface AwarenessCard {
  project: string;
  run: string;
  launcherId: number;
  launcherName: string;
  countsLine: string;
  latest: { at: number; text: string; kind: string };
}

/** Host → view: the whole state (a snapshot; the host keeps only the newest one queued). */
export interface AwarenessState {
  type: 'state';
  daemon: DaemonLine;
  /** undefined while the daemon cannot say (down, or no runs method yet). */
  cards: AwarenessCard[] | undefined;
}

export type AwarenessToView = AwarenessState;

/** View → host: open the conversation that launched a run. */
export interface OpenLauncher {
  type: 'openConversation';
  convId: number;
}

export type AwarenessFromView = ReadyMessage | OpenLauncher;
