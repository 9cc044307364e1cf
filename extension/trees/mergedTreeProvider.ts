// The one base of svc's tree views (the Command Deck, the Reviews tree, the Inbox): each
// builds its nodes with a pure model, and this shows them. A rebuild is merged into the
// nodes shown (treeMerge.ts), so a refresh names only the rows that changed and an
// unchanged tree is not re-rendered (a refresh under the pointer can swallow a click); the
// parents are indexed for reveal; verdict badges, where a tree has them, follow each
// rebuild. A node becomes a TreeItem the same way in every tree; each view says only what
// a click on its row does.
import * as vscode from 'vscode';
import { badgeUri } from '../commandDeck/badges';
import type { TreeBadges } from '../commandDeck/badges';
import type { DeckIcon } from '../commandDeck/deckIcons';
import { mergeTree } from '../commandDeck/treeMerge';
import type { TreeNodeLike } from '../commandDeck/treeMerge';
import type { LiveQuery } from '../connection/liveQuery';

/** What every tree's node carries to be shown. */
export interface ShownNode<N> extends TreeNodeLike<N> {
  label: string;
  description?: string;
  contextValue?: string;
  /** Markdown. */
  tooltip: string;
  icon: DeckIcon;
  /** Starts collapsed; otherwise a node with children starts expanded. */
  collapsed?: boolean;
  /** What a screen reader says for the row, when the label alone would mislead. */
  ariaLabel?: string;
}

export abstract class MergedTreeProvider<N extends ShownNode<N>>
  implements vscode.TreeDataProvider<N>, vscode.Disposable
{
  private roots: N[] = [];
  private readonly parents = new Map<string, N | undefined>();
  private readonly emitter = new vscode.EventEmitter<N | N[] | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  /** The daemon read that feeds the tree; set by the subclass's constructor. */
  protected abstract readonly query: Pick<LiveQuery<unknown>, 'refresh' | 'dispose'>;
  /** Disposed with the tree, after the query. */
  protected readonly disposables: vscode.Disposable[] = [this.emitter];

  /** `badges`: the tree's verdict badges, set from each rebuild; their scheme names the rows' resource URIs. */
  constructor(readonly badges?: TreeBadges) {
    if (badges) this.disposables.push(badges);
  }

  /** The nodes of the current tree (for in-host tests and reveal). */
  get topLevel(): readonly N[] {
    return this.roots;
  }

  /** Shows a rebuilt tree: merged into the nodes shown, indexed, badged, and refreshed where it changed. */
  protected show(next: N[]): void {
    const merged = mergeTree(this.roots, next);
    this.roots = merged.roots;
    this.parents.clear();
    const index = (nodes: N[], parent: N | undefined) => {
      for (const n of nodes) {
        this.parents.set(n.id, parent);
        this.indexed(n);
        index(n.children, n);
      }
    };
    this.beforeIndex();
    index(this.roots, undefined);
    this.badges?.set(this.roots);
    if (merged.refresh === 'all') this.emitter.fire(undefined);
    else if (merged.refresh.length) this.emitter.fire(merged.refresh);
  }

  /** Hooks for a tree that keeps an index of its own (the deck's nodes by conversation). */
  protected beforeIndex(): void {}
  protected indexed(_n: N): void {}

  /** What a click on the row does, if anything. */
  protected abstract commandOf(n: N): vscode.Command | undefined;

  getTreeItem(n: N): vscode.TreeItem {
    return treeItemOf(n, this.badges?.scheme, this.commandOf(n));
  }

  getChildren(n?: N): N[] {
    return n ? n.children : this.roots;
  }

  getParent(n: N): N | undefined {
    return this.parents.get(n.id);
  }

  /** Reads the daemon again now. */
  refresh(): void {
    this.query.refresh(0);
  }

  dispose(): void {
    this.query.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

/** A node as a TreeItem; `scheme`: the tree's badge scheme, naming the row's resource URI. */
export function treeItemOf<N extends ShownNode<N>>(
  n: N,
  scheme: string | undefined,
  command: vscode.Command | undefined,
): vscode.TreeItem {
  const state = !n.children.length
    ? vscode.TreeItemCollapsibleState.None
    : n.collapsed
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.Expanded;
  const item = new vscode.TreeItem(n.label, state);
  item.id = n.id;
  item.description = n.description;
  item.contextValue = n.contextValue;
  item.tooltip = new vscode.MarkdownString(n.tooltip, true);
  item.iconPath = new vscode.ThemeIcon(n.icon.id, n.icon.color ? new vscode.ThemeColor(n.icon.color) : undefined);
  // The URI carries the verdict badge (badges.ts); it names no file, the label stays ours.
  if (scheme) item.resourceUri = badgeUri(scheme, n.id);
  if (n.ariaLabel) item.accessibilityInformation = { label: n.ariaLabel };
  if (command) item.command = command;
  return item;
}
