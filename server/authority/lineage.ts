// Who descends from whom. Every lane records its launcher as parent, and every successor
// (handoff, fork) its source, so one walk up the parent links finds all of a
// conversation's ancestors: a launcher, its launcher, the source a successor continues.
// The authority rules and any rule of the form "the lane's launcher may" use these.

/** What the walk needs of a conversation row. */
export interface LineageRow {
  id: number;
  name: string;
  kind: string;
  parentId: number | null;
}

export type RowById = (id: number) => LineageRow | undefined;

/** The ancestors of `row`, nearest first (its launcher or source, then that one's, up to a root). */
export function ancestorsOf(get: RowById, row: LineageRow): LineageRow[] {
  const out: LineageRow[] = [];
  const seen = new Set<number>([row.id]);
  let next = row.parentId;
  // A cycle cannot be written through svc (parents are set once, to an older row); the
  // guard keeps a hand-edited database from hanging the daemon.
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const parent = get(next);
    if (!parent) break;
    out.push(parent);
    next = parent.parentId;
  }
  return out;
}

/** Whether `ancestorId` launched `row` or one of its ancestors (or is the source a successor continues). Never true of the row itself. */
export function isAncestor(get: RowById, ancestorId: number, row: LineageRow): boolean {
  return ancestorsOf(get, row).some((a) => a.id === ancestorId);
}

/** Whether `agentId` is `row` itself or one of its ancestors: the rows an agent may act on. */
export function isSelfOrDescendant(get: RowById, agentId: number, row: LineageRow): boolean {
  return row.id === agentId || isAncestor(get, agentId, row);
}
