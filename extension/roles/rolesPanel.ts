// The Roles panel (a webview panel, one per window): per project the five gauntlet roles'
// model, effort and harness, and the review settings, each with its source and what
// happens while unset. A LiveQuery reads config/roles on open, on (re)connect and on every
// `svc/changed {topic: config}` (edits in an editor show without a reload); writes go
// through config/set, whose refusals are shown next to their field, not as pop-ups, and
// an accepted write says Saved there. The panel comes back after a window reload (restore).
import * as vscode from 'vscode';
import { configModels, configRoles, configSet } from '../../shared/protocol/config';
import type { ModelChoices, RolesView } from '../../shared/protocol/config';
import type { RolesFromView, RolesState, RolesToView } from '../../shared/webview/rolesMessages';
import type { DaemonConnection } from '../connection/daemonConnection';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { LiveQuery } from '../connection/liveQuery';
import { OnePerWindow } from '../webviews/onePerWindow';
import { WebviewHost } from '../webviews/webviewHost';

export const ROLES_VIEW_TYPE = 'svc.roles';

export class RolesPanel extends WebviewHost<RolesToView, RolesFromView> {
  private static readonly one = new OnePerWindow<RolesPanel>();
  private panel?: vscode.WebviewPanel;
  private view: RolesView | null = null;
  private problem: string | null = null;
  private readonly models: Record<string, ModelChoices> = {};
  private readonly results: RolesState['results'] = {};
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly query: LiveQuery<{ view: RolesView | null; problem: string | null }>;

  /** Shows the panel, creating it on first use. */
  static show(extensionUri: vscode.Uri, connection: DaemonConnection): RolesPanel {
    return RolesPanel.one.show(() => new RolesPanel(extensionUri, connection));
  }

  /** The panel VS Code kept across a window reload (its serializer). */
  static restore(extensionUri: vscode.Uri, connection: DaemonConnection, panel: vscode.WebviewPanel): RolesPanel {
    return RolesPanel.one.restore(panel, (p) => new RolesPanel(extensionUri, connection, p));
  }

  /** The open panel, if any (for tests). */
  static get open(): RolesPanel | undefined {
    return RolesPanel.one.open;
  }

  reveal(): void {
    this.panel?.reveal();
  }

  private constructor(
    extensionUri: vscode.Uri,
    private readonly connection: DaemonConnection,
    restored?: vscode.WebviewPanel,
  ) {
    super(extensionUri, { bundle: 'rolesMain', title: 'svc Roles' });
    const panel =
      restored ??
      vscode.window.createWebviewPanel(ROLES_VIEW_TYPE, 'svc Roles', vscode.ViewColumn.Active, { enableScripts: true });
    this.panel = panel;
    this.attach(panel.webview);
    this.query = new LiveQuery(
      connection,
      'the Roles panel',
      ['config'],
      () => this.read(),
      (v) => {
        if (v.kind === 'value') ({ view: this.view, problem: this.problem } = v.value);
        this.send();
      },
      0,
    );
    this.subscriptions.push(
      panel.onDidDispose(() => this.dispose()),
      this.query,
      // The panel says "connecting…" or why the daemon is down while it is.
      connection.onDidChangeState((s) => s.kind !== 'connected' && this.send()),
    );
    this.send();
  }

  /** The state last sent (for tests). */
  get state(): RolesState {
    return this.snapshot();
  }

  protected onReady(): void {
    this.send();
  }

  protected async onMessage(msg: RolesFromView): Promise<void> {
    if (msg.type === 'set') await this.set(msg.key, msg.value);
    else if (msg.type === 'models') await this.loadModels(msg.harness);
  }

  private async set(key: string, value: string | null): Promise<void> {
    try {
      await this.connection.request(configSet, { key, value });
      this.results[key] = { ok: true, message: null, at: Date.now() };
    } catch (e) {
      if (!DaemonRefusal.is(e)) throw e; // down daemon or a bug: the funnel says so
      this.results[key] = { ok: false, message: e.message, at: Date.now() };
    }
    // The daemon's svc/changed re-reads too; read now so the result and value arrive together.
    await this.query.now();
  }

  private async loadModels(harness: string): Promise<void> {
    const known = this.models[harness];
    if (known && known.source !== 'unavailable') return;
    try {
      this.models[harness] = await this.connection.request(configModels, { harness });
    } catch (e) {
      if (!DaemonRefusal.is(e)) throw e;
      this.models[harness] = { models: [], source: 'unavailable', reason: e.message };
    }
    this.send();
  }

  /** config/roles; a refusal (a broken projects.yaml) is shown in the panel, with the last good view. */
  private async read(): Promise<{ view: RolesView | null; problem: string | null }> {
    try {
      return { view: await this.connection.request(configRoles, {}), problem: null };
    } catch (e) {
      if (!DaemonRefusal.is(e)) throw e;
      return { view: this.view, problem: e.message };
    }
  }

  private snapshot(): RolesState {
    const s = this.connection.state;
    const daemon =
      s.kind === 'connected'
        ? null
        : s.kind === 'connecting'
          ? 'connecting to the daemon…'
          : `the daemon is not connected: ${this.connection.whyDown()}`;
    return {
      type: 'state',
      daemon,
      view: this.view,
      problem: this.problem,
      models: { ...this.models },
      results: { ...this.results },
    };
  }

  private send(): void {
    this.post(this.snapshot());
  }

  override dispose(): void {
    RolesPanel.one.closed(this);
    for (const d of this.subscriptions) d.dispose();
    this.subscriptions.length = 0;
    const panel = this.panel;
    this.panel = undefined;
    super.dispose();
    panel?.dispose();
  }
}
