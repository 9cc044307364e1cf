// Every refusal of the authority rules, each message made here and nowhere else. All are
// kind 'refused' (exit 1 from the shim, 409 over HTTP), say what was refused, the rule,
// and who may do it instead; nothing was changed by a refused request.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { AUTHORITY_REFUSALS } from '../../shared/refusals/authority';
import type { ConversationRow } from '../conversations/conversationStore';
import type { Rule } from './authorityTable';
import type { RowById } from './lineage';

const { refused } = refusalsOf(AUTHORITY_REFUSALS);

const shown = (c: { id: number; name: string }) => `#${c.id} (${c.name})`;

export function personOnlyError(action: string, me: ConversationRow): SvcError<'personOnly'> {
  return refused(
    'personOnly',
    `an agent may not ${action}: only the person may; you are agent ${shown(me)} — ask the person`,
  );
}

/** How `target` came to be: who launched it, whose successor it is, or that a person started it. */
function origin(target: ConversationRow, get: RowById): string {
  const parent = target.parentId === null ? undefined : get(target.parentId);
  if (!parent) return `${shown(target)} was started by the person`;
  if (target.kind === 'successor') return `${shown(target)} continues ${shown(parent)}`;
  return `${shown(target)} was launched by ${shown(parent)}`;
}

export function lineageRefusal(
  rule: Extract<Rule, { who: 'lineage' }>,
  me: ConversationRow,
  target: ConversationRow,
  get: RowById,
): SvcError<'notInLineage'> {
  const scope = rule.self
    ? `${rule.noun} it launched (their lanes and successors too) or itself`
    : `${rule.noun} it launched (their lanes and successors too), never itself`;
  const why = target.id === me.id ? `${shown(target)} is you` : origin(target, get);
  return refused('notInLineage', `an agent may only ${rule.verb} ${scope}; ${why} — ask the person or your launcher`);
}

export function notReviewParentError(
  action: string,
  me: ConversationRow,
  issue: string | null,
): SvcError<'notOwnRole'> {
  const of = issue ? ` of ${issue}` : '';
  return refused(
    'notOwnRole',
    `only the review parent${of} (or the person) may ${action}; agent ${shown(me)} is not it — ask the person`,
  );
}

export function notWorkAgentError(action: string, me: ConversationRow, issue: string | null): SvcError<'notOwnRole'> {
  const of = issue ? ` of ${issue}` : ' of an issue';
  return refused(
    'notOwnRole',
    `only the work agent${of} (or the person) may ${action}; agent ${shown(me)} is not it — ask the person`,
  );
}

export function callerMismatchError(envelope: ConversationRow, param: ConversationRow): SvcError<'callerMismatch'> {
  return refused(
    'callerMismatch',
    `this request comes from conversation ${shown(envelope)} but names ${shown(param)} as its caller; an agent acts only as itself`,
  );
}

/** Over a connection that belongs to one agent, the request named another conversation. */
export function connectionIsAgentError(own: ConversationRow, claimed: ConversationRow): SvcError<'callerMismatch'> {
  return refused(
    'callerMismatch',
    `this connection belongs to agent ${shown(own)} but the request says it comes from ${shown(claimed)}; an agent acts only as itself: leave SVC_CONVERSATION as svc set it`,
  );
}

/** A method or route with no row in the authority table: refused to everyone until it has one. */
export function missingRowError(key: string): SvcError<'personOnly'> {
  return refused(
    'personOnly',
    `${key} has no row in the authority table, so nobody may call it; this is a bug in svc, please report it`,
  );
}
