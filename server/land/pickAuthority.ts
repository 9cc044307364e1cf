// Who may pick among a run's builders (`lanes/pick`, a `method` row of the authority table):
// the same callers as `svc lane land` — the person, or an agent that launched every builder
// considered (or an ancestor of its launcher). A builder (itself or a sibling) and a critic
// are refused before any check runs.
import type { Caller } from '../authority/caller';
import { ancestorsOf, isAncestor } from '../authority/lineage';
import type { ConversationsPort } from '../lanes/conversationsPort';
import type { LaneRow } from '../lanes/laneStore';
import { pickNotAllowedError } from './landRefusals';

export function mayPick(conversations: ConversationsPort, caller: Caller, builders: readonly LaneRow[]): void {
  if (caller.kind === 'person') return;
  const me = caller.conv;
  const get = (id: number) => conversations.get(id);
  for (const lane of builders) {
    const row = get(lane.id);
    if (!row || (lane.id !== me.id && isAncestor(get, me.id, row))) continue;
    const parent = ancestorsOf(get, row)[0];
    const it = `#${lane.id} (${lane.name})`;
    const by = parent ? `was launched by #${parent.id} (${parent.name})` : 'was started by the person';
    throw pickNotAllowedError(lane.id === me.id ? `${it} is you` : `${it} ${by}, not by you (#${me.id} (${me.name}))`);
  }
}
