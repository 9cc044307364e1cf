// The one base class of every webview host (docs/style.md §10): it sets the HTML once per
// webview (pageHtml: nonce CSP, bundle and codicons from dist/), queues messages until
// the page says `ready`, and routes every message from the page through the error
// funnel. Messages to the page are state snapshots, so the queue keeps only the newest
// of each type. WebviewViewHost serves sidebar views; panels subclass WebviewHost the
// same way (attach on create, detach on dispose).
import * as vscode from 'vscode';
import type { ViewMessage } from '../../shared/webview/viewMessages';
import { funnel } from '../errors/errorFunnel';
import { logger } from '../log';
import { makeNonce, pageHtml } from './pageHtml';

const log = logger('webviews');

export interface PageSpec {
  /** The bundle name: dist/webview/<bundle>.js, built from webview/<bundle>.ts (a *Main.ts). */
  bundle: string;
  title: string;
}

export abstract class WebviewHost<ToView extends ViewMessage, FromView extends ViewMessage>
  implements vscode.Disposable
{
  private webview?: vscode.Webview;
  private ready = false;
  private readonly pending = new Map<string, ToView>();
  private attached: vscode.Disposable[] = [];

  constructor(
    protected readonly extensionUri: vscode.Uri,
    protected readonly page: PageSpec,
  ) {}

  /** Sends a snapshot now, or when the page is ready. */
  post(msg: ToView): void {
    if (this.webview && this.ready) {
      void this.webview
        .postMessage(msg)
        .then(undefined, (e: unknown) => log.warn(`posting to ${this.page.title} failed: ${String(e)}`));
      return;
    }
    this.pending.delete(msg.type); // keep insertion order of the newest
    this.pending.set(msg.type, msg);
  }

  /** True once the page has said ready (for tests and for skipping work nobody sees). */
  get isReady(): boolean {
    return this.ready;
  }

  /** The page said ready: send everything it shows. */
  protected abstract onReady(): void | Promise<void>;
  /** A message from the page other than `ready`. Errors go through the funnel. */
  protected abstract onMessage(msg: FromView): void | Promise<void>;

  protected attach(webview: vscode.Webview): void {
    this.detach();
    this.webview = webview;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    webview.options = { enableScripts: true, localResourceRoots: [dist] };
    webview.html = pageHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      title: this.page.title,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview', `${this.page.bundle}.js`)).toString(),
      codiconCssUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicons', 'codicon.css')).toString(),
    });
    this.attached.push(webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
  }

  protected detach(): void {
    for (const d of this.attached) d.dispose();
    this.attached = [];
    this.webview = undefined;
    this.ready = false;
  }

  private receive(raw: unknown): void {
    if (typeof raw !== 'object' || raw === null || typeof (raw as ViewMessage).type !== 'string') {
      log.warn(`${this.page.title}: ignored a message without a type`);
      return;
    }
    const msg = raw as FromView;
    if (msg.type === 'ready') {
      this.ready = true;
      const queued = [...this.pending.values()];
      this.pending.clear();
      for (const m of queued) this.post(m);
      void funnel(`show ${this.page.title}`, () => this.onReady());
      return;
    }
    void funnel(`handle ${this.page.title} action ${msg.type}`, () => this.onMessage(msg));
  }

  dispose(): void {
    this.detach();
    this.pending.clear();
  }
}

/** A sidebar webview view: VS Code resolves it when first shown and again after it was disposed. */
export abstract class WebviewViewHost<ToView extends ViewMessage, FromView extends ViewMessage>
  extends WebviewHost<ToView, FromView>
  implements vscode.WebviewViewProvider
{
  private view?: vscode.WebviewView;

  register(viewId: string): vscode.Disposable {
    return vscode.window.registerWebviewViewProvider(viewId, this);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.attach(view.webview);
    view.onDidDispose(() => {
      if (this.view === view) {
        this.view = undefined;
        this.detach();
      }
    });
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }
}
