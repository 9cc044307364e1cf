// Keeps a tree view's node objects across rebuilds, so a refresh names only the rows that
// changed (the Command Deck and the Reviews tree use it). Pure: no vscode import.
//
// Why: VS Code's extension host maps each row's handle to our node object, and a refresh
// of the whole tree (onDidChangeTreeData with undefined) clears that map until the
// workbench has fetched the rows again. A context-menu command that arrives in that gap
// is given no node: "Start Lane…" on a row then asked for the launcher instead of using
// the row. The deck changes several times a second while agents work, so the gap is hit:
// in code-server, 2 of 40 "Start Lane…" clicks on a row's menu lost the row while another
// conversation was stopped and resumed; none with this merge. A refresh of single rows
// keeps every other row's handle. A change of the top-level rows still refreshes the whole
// tree: VS Code has no other way to re-read them.

/** A tree node: a stable id and its children. */
export interface TreeNodeLike<N> {
  id: string;
  children: N[];
}

export interface MergedTree<N> {
  /** The roots to show: the old node objects, updated in place, where the shape held. */
  roots: N[];
  /** `all`: refresh the whole tree; otherwise the nodes to refresh (each re-reads its subtree), often none. */
  refresh: 'all' | N[];
}

/**
 * Merges `next` into `old`: a node whose id stays at its place keeps its object, updated
 * with `next`'s fields; it is refreshed when its own fields changed, or when its children's
 * ids changed (then it takes `next`'s children). Top-level ids that changed refresh all.
 */
export function mergeTree<N extends TreeNodeLike<N>>(old: N[], next: N[]): MergedTree<N> {
  if (!sameIds(old, next)) return { roots: next, refresh: 'all' };
  const refresh: N[] = [];
  const walk = (was: N[], now: N[]) => {
    for (let i = 0; i < was.length; i++) {
      const [o, n] = [was[i], now[i]];
      const reshaped = !sameIds(o.children, n.children);
      if (reshaped || !sameOwnFields(o, n)) {
        assignOwn(o, n);
        refresh.push(o);
      }
      if (reshaped) o.children = n.children;
      else walk(o.children, n.children);
    }
  };
  walk(old, next);
  return { roots: old, refresh };
}

function sameIds(a: readonly TreeNodeLike<unknown>[], b: readonly TreeNodeLike<unknown>[]): boolean {
  return a.length === b.length && a.every((n, i) => n.id === b[i].id);
}

/**
 * Whether two nodes' own fields (not their children) are equal as JSON would write them: a
 * field set to undefined counts as absent, key order aside. Compared in place, without
 * writing each node out as text: a deck of 2,000 rows compared its nodes' text (each with its
 * row) on every change, a third of the model's time.
 */
function sameOwnFields(a: object, b: object): boolean {
  return sameJson(a, b, 'children');
}

function sameJson(a: unknown, b: unknown, skip?: string): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (!plain(a) || !plain(b)) return JSON.stringify(a) === JSON.stringify(b); // a Date, a class: as JSON writes it
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(inArray(a[i]), inArray(y[i]))) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    if (k === skip || !written(x[k])) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !sameJson(x[k], y[k])) return false;
  }
  for (const k in y) if (k !== skip && written(y[k])) count--;
  return count === 0;
}

/** Whether JSON.stringify writes an object's field at all. */
const written = (v: unknown) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
/** What JSON.stringify writes for an array's element: null for what it leaves out of objects. */
const inArray = (v: unknown) => (written(v) ? v : null);

function plain(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

/** Gives `target` exactly `source`'s own fields; its children are left as they are. */
function assignOwn(target: object, source: object): void {
  const t = target as Record<string, unknown>;
  for (const k of Object.keys(t)) if (k !== 'children' && !(k in source)) delete t[k];
  for (const [k, v] of Object.entries(source)) if (k !== 'children') t[k] = v;
}
