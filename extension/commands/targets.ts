// What a command acts on: the conversation it was invoked on (commandArgs.ts reads it from
// the tree node, webview context or link), else a quick pick of the deck's conversations, with
// the selected row offered first. "Nothing to pick" is said plainly.
import * as vscode from 'vscode';
import type { DeckNode, DeckRow } from '../commandDeck/deckModel';
import type { DeckProvider } from '../commandDeck/deckProvider';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';

export interface ConvTarget {
  id: number;
  /** The deck's row, when the conversation is in the deck. */
  row?: DeckRow;
}

export interface PickOptions {
  /** "stop", "tell" … for the picker's title. */
  what: string;
  /** Only rows this accepts are offered. */
  filter?: (r: DeckRow) => boolean;
  /** Said when no row passes the filter. */
  none: string;
}

/** `id`: the conversation the command was invoked on (commandArgs.ts), else undefined: a pick. */
export async function conversationTarget(
  id: number | undefined,
  deck: DeckProvider,
  selected: readonly DeckNode[],
  o: PickOptions,
): Promise<ConvTarget> {
  if (id !== undefined) return { id, row: deck.row(id) };
  const rows = deck.currentRows.filter((r) => !r.archived && (o.filter ? o.filter(r) : true));
  if (rows.length === 0) throw new NothingToDo(o.none);
  const first = selected.find((n) => n.kind === 'conv')?.convId;
  const items = rows
    .map((r) => ({ label: r.title || r.name, description: describe(r), row: r }))
    .sort((a, b) => (a.row.id === first ? -1 : b.row.id === first ? 1 : b.row.id - a.row.id));
  const picked = await vscode.window.showQuickPick(items, {
    title: `svc: ${o.what}`,
    placeHolder: `Which conversation to ${o.what}?`,
    matchOnDescription: true,
  });
  if (!picked) throw new UserCancelled();
  return { id: picked.row.id, row: picked.row };
}

function describe(r: DeckRow): string {
  const parts = [`#${r.id}`, r.name];
  if (r.role) parts.push(`${r.role}${r.iteration !== undefined ? ` i${r.iteration}` : ''}`);
  parts.push(r.activity);
  return parts.join(' · ');
}

/** An input box that throws UserCancelled when dismissed. */
export async function ask(opts: vscode.InputBoxOptions): Promise<string> {
  const v = await vscode.window.showInputBox({ ignoreFocusOut: true, ...opts });
  if (v === undefined) throw new UserCancelled();
  return v;
}
