// The page side of the host handshake: install the message listener, then say `ready`
// (the host queues until then). acquireVsCodeApi may be called once per page. The page's
// kept state (setState) survives a window reload: panels' serializers read it to come back.
import type { ReadyMessage, ViewMessage } from '../../shared/webview/viewMessages';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel<FromView extends ViewMessage> {
  post(msg: Exclude<FromView, ReadyMessage>): void;
  /** What the page kept for itself (VS Code hands it back after a window reload, to the host's serializer too). */
  getState<S>(): S | undefined;
  setState<S>(state: S): void;
}

export function connectToHost<ToView extends ViewMessage, FromView extends ViewMessage>(
  onMessage: (msg: ToView) => void,
): HostChannel<FromView> {
  const api = acquireVsCodeApi();
  window.addEventListener('message', (e: MessageEvent<unknown>) => {
    const d = e.data as ViewMessage | null;
    if (d && typeof d === 'object' && typeof d.type === 'string') onMessage(d as ToView);
  });
  api.postMessage({ type: 'ready' } satisfies ReadyMessage);
  return {
    post: (msg) => api.postMessage(msg),
    getState: <S>() => (api.getState() ?? undefined) as S | undefined,
    setState: <S>(state: S) => api.setState(state),
  };
}
