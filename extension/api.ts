// What activate() returns: a small read-only surface for the in-host tests (test/e2e/inHost),
// so they can check the views' models without scraping the DOM. Not a public API.
import type { DeckNode } from './commandDeck/deckModel';
import type { ConnectionState } from './connection/daemonConnection';

export interface SvcTestApi {
  connectionState(): ConnectionState;
  deckTopLevel(): readonly DeckNode[];
  /** Resolves once the connection leaves `connecting` (or after timeoutMs). */
  whenSettled(timeoutMs: number): Promise<ConnectionState>;
}
