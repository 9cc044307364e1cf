// The handshake every webview shares with its host (extension/webviews/webviewHost.ts):
// the page posts `ready` once its listener is installed; until then the host queues.
// Who must stay in sync: extension/webviews/webviewHost.ts and webview/common/vscodeApi.ts.

/** Every message either way carries a `type` discriminator. */
export interface ViewMessage {
  type: string;
}

/** View → host: the page is listening; send the current state. */
export interface ReadyMessage {
  type: 'ready';
}
