// Verdict badges in the trees, as the SCM and Testing views show theirs: each node with a
// verdict gets a resource URI of the tree's own scheme, and a FileDecoration of that URI
// carries the badge (the defect count or ✓) in the verdict's theme colour.
import * as vscode from 'vscode';
import type { VerdictBadge } from './deckIcons';

export const badgeUri = (scheme: string, nodeId: string) => vscode.Uri.from({ scheme, path: `/${nodeId}` });

interface BadgeNode {
  id: string;
  badge?: VerdictBadge;
  children: readonly BadgeNode[];
}

export class TreeBadges implements vscode.FileDecorationProvider, vscode.Disposable {
  private byUri = new Map<string, VerdictBadge>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri[]>();
  readonly onDidChangeFileDecorations = this.emitter.event;

  constructor(readonly scheme: string) {}

  /** The badges of a new tree; fires for the URIs whose badge changed. */
  set(roots: readonly BadgeNode[]): void {
    const before = this.byUri;
    this.byUri = new Map();
    const walk = (nodes: readonly BadgeNode[]) => {
      for (const n of nodes) {
        if (n.badge) this.byUri.set(badgeUri(this.scheme, n.id).toString(), n.badge);
        walk(n.children);
      }
    };
    walk(roots);
    const changed: string[] = [];
    for (const [k, b] of this.byUri) if (JSON.stringify(before.get(k)) !== JSON.stringify(b)) changed.push(k);
    for (const k of before.keys()) if (!this.byUri.has(k)) changed.push(k);
    if (changed.length) this.emitter.fire(changed.map((k) => vscode.Uri.parse(k)));
  }

  /** The badge shown for a node (in-host tests). */
  badge(nodeId: string): VerdictBadge | undefined {
    return this.byUri.get(badgeUri(this.scheme, nodeId).toString());
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== this.scheme) return undefined;
    const b = this.byUri.get(uri.toString());
    if (!b) return undefined;
    const d = new vscode.FileDecoration(b.text, b.tooltip, new vscode.ThemeColor(b.color));
    d.propagate = false;
    return d;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
