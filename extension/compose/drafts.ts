// Drafts: a lane's brief or an issue's description written in an editor (an untitled
// Markdown document), not in a one-line box. The document opens with a comment saying
// what it is for and how to submit it; "svc: Launch Lane" / "svc: Create Issue" (the
// editor's title-bar button, or the palette while that draft is the active editor) sends
// its text without the comment. A refused submit leaves the draft open with its text; a
// draft closed without submitting is remembered (the flow that opened it prefills from it).
import * as vscode from 'vscode';
import { NothingToDo } from '../errors/errorFunnel';
import { draftBody, draftHeader } from './draftText';

export type DraftKind = 'lane' | 'issue';

/** The context key the draft commands' `when` reads: the kind of the active editor's draft. */
export const DRAFT_CONTEXT = 'svc.draft';

interface Pending {
  kind: DraftKind;
  submit(text: string): Promise<void>;
  /** Called with the text when the draft is closed without a submit. */
  closed?(text: string): void;
}

export class Drafts implements vscode.Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly subs: vscode.Disposable[];

  constructor() {
    this.subs = [
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const p = this.pending.get(doc.uri.toString());
        if (!p) return;
        this.pending.delete(doc.uri.toString());
        p.closed?.(draftBody(doc.getText()));
        this.updateContext();
      }),
    ];
  }

  /**
   * Opens a draft (or brings back the open one of this kind, replacing its header and
   * keeping its text) and waits for nothing: `submit` runs when the person submits.
   */
  async open(kind: DraftKind, header: string[], body: string, p: Omit<Pending, 'kind'>): Promise<vscode.TextEditor> {
    const existing = [...this.pending.entries()].find(([, v]) => v.kind === kind);
    if (existing) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === existing[0]);
      if (doc) {
        this.pending.set(existing[0], { kind, ...p });
        const editor = await vscode.window.showTextDocument(doc, { preview: false });
        const keep = draftBody(doc.getText()) || body;
        await editor.edit((e) =>
          e.replace(new vscode.Range(0, 0, doc.lineCount, 0), draftHeader(header) + keep + '\n'),
        );
        this.updateContext();
        return editor;
      }
      this.pending.delete(existing[0]);
    }
    const doc = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: draftHeader(header) + body + (body ? '\n' : ''),
    });
    this.pending.set(doc.uri.toString(), { kind, ...p });
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    editor.selection = new vscode.Selection(end, end);
    this.updateContext();
    return editor;
  }

  /** Submits the active editor's draft of `kind`; on success closes it unsaved. A refusal propagates (the funnel shows it) and the draft stays. */
  async submit(kind: DraftKind): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const key = editor?.document.uri.toString();
    const p = key ? this.pending.get(key) : undefined;
    if (!editor || !key || !p || p.kind !== kind) {
      throw new NothingToDo(
        kind === 'lane'
          ? 'no lane brief is open: run "svc: Start Lane…" first'
          : 'no issue description is open: run "svc: New Issue…" first',
      );
    }
    const text = draftBody(editor.document.getText());
    if (!text)
      throw new NothingToDo(
        kind === 'lane'
          ? 'the brief is empty: write what the lane should do below the comment'
          : 'the description is empty: write it below the comment',
      );
    await p.submit(text);
    this.pending.delete(key);
    this.updateContext();
    // Close without a save prompt: the text went to the daemon.
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }

  private updateContext(): void {
    const key = vscode.window.activeTextEditor?.document.uri.toString();
    const kind = key ? this.pending.get(key)?.kind : undefined;
    void vscode.commands.executeCommand('setContext', DRAFT_CONTEXT, kind ?? '');
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.pending.clear();
  }
}
