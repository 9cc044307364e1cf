// Panels come back after a window reload, as editors do: VS Code keeps each panel's tab
// and the page's own state (setState), then asks these serializers to bring the panel
// back. package.json's `onWebviewPanel:` activation events wake the extension for them.
// A conversation panel is found by the id its page kept (or its tab title, `#12 …`).
import * as vscode from 'vscode';
import type { ConversationPageState } from '../../shared/webview/conversationMessages';
import { AGENTS_VIEW_TYPE, AgentsPanel } from '../agents/agentsPanel';
import type { DaemonConnection } from '../connection/daemonConnection';
import { CONVERSATION_VIEW_TYPE } from '../conversations/conversationPanel';
import type { ConversationPanels } from '../conversations/conversationPanel';
import { logger } from '../log';
import { RolesPanel, ROLES_VIEW_TYPE } from '../roles/rolesPanel';

const log = logger('webviews');

/** Whether a restored panel was a preview: the page kept it; a page from before kept no flag (kept). */
export function restoredPreview(state: unknown): boolean {
  return (state as Partial<ConversationPageState> | undefined)?.preview === true;
}

/** The conversation a restored panel showed: from the page's kept state, else its title. */
export function restoredConvId(state: unknown, title: string): number | undefined {
  const id = (state as Partial<ConversationPageState> | undefined)?.convId;
  if (typeof id === 'number' && Number.isInteger(id) && id > 0) return id;
  const m = /^#(\d+)\b/.exec(title);
  return m ? Number(m[1]) : undefined;
}

export function registerPanelSerializers(
  extensionUri: vscode.Uri,
  connection: DaemonConnection,
  panels: ConversationPanels,
): vscode.Disposable[] {
  return [
    vscode.window.registerWebviewPanelSerializer(CONVERSATION_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => {
        const id = restoredConvId(state, panel.title);
        if (id === undefined) {
          log.warn(`a restored conversation panel (${panel.title}) names no conversation; closed`);
          panel.dispose();
          return;
        }
        panels.restore(panel, id, restoredPreview(state));
      },
    }),
    vscode.window.registerWebviewPanelSerializer(AGENTS_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => void AgentsPanel.restore(extensionUri, connection, panel),
    }),
    vscode.window.registerWebviewPanelSerializer(ROLES_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => void RolesPanel.restore(extensionUri, connection, panel),
    }),
  ];
}
