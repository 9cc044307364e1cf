// A conversation's output as a read-only document (`svc-conversation:` URIs), read with
// conversations/log and refreshed on `svc/changed` of topic `transcript` for that id.
// What "open conversation" shows until the conversation panel (issue 7 §5) replaces it.
import * as vscode from 'vscode';
import { conversationsLog } from '../../shared/protocol/conversations';
import type { DaemonConnection } from '../connection/daemonConnection';

export const CONVERSATION_SCHEME = 'svc-conversation';
const LINES = 5000;

export function conversationUri(convId: number, name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: CONVERSATION_SCHEME, path: `/#${convId} ${name}.log`, query: String(convId) });
}

export class ConversationLogProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly connection: DaemonConnection) {
    this.subscription = connection.onDidChange((c) => {
      if (c.topic !== 'transcript' && c.topic !== 'conversations') return;
      for (const doc of vscode.workspace.textDocuments) {
        if (doc.uri.scheme === CONVERSATION_SCHEME && (c.id === undefined || String(c.id) === doc.uri.query)) this.emitter.fire(doc.uri);
      }
    });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const r = await this.connection.request(conversationsLog, { conv: uri.query, lines: LINES });
    return r.text;
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
