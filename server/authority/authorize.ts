// Judges one request against its row of the authority table (authorityTable.ts). A person
// passes every row; an agent passes only what its row allows, else a refusal that names
// the rule and who may do it instead. Nothing here changes state.
import type { ConversationRow } from '../conversations/conversationStore';
import { reviewSeatOf } from '../conversations/reviewSeat';
import {
  lineageRefusal,
  missingRowError,
  notReviewParentError,
  notWorkAgentError,
  personOnlyError,
} from './authorityRefusals';
import { ruleOf } from './authorityTable';
import type { Params } from './authorityTable';
import type { Caller } from './caller';
import { isSelfOrDescendant } from './lineage';

// Properties, not methods: authorize hands `get` on to the lineage walk as a free function.
export interface AuthorityDeps {
  get: (id: number) => ConversationRow | undefined;
  /** `#id`, id or name; throws notFound (the same answer the method would give). */
  resolve(ref: string): ConversationRow;
  /** An issue ref to its id; throws notFound. */
  issueId(ref: string): string;
}

/** Throws unless `caller` may call `key` (an RPC method or `METHOD /route`) with `params`. */
export function authorize(deps: AuthorityDeps, key: string, caller: Caller, params: Params): void {
  const rule = ruleOf(key);
  if (!rule) throw missingRowError(key);
  if (caller.kind === 'person') return;
  const me = caller.conv;
  switch (rule.who) {
    case 'anyone':
    case 'launcher': // the method launches as the caller, by the launch rules
    case 'itself': // the method files as the caller
    case 'signed':
    case 'method': // the method applies its own rule to the resolved caller
      return;
    case 'person':
      throw personOnlyError(rule.action, me);
    case 'lineage': {
      const ref = rule.target(params);
      if (!ref) return; // the method refuses a missing target itself
      const target = deps.resolve(ref);
      if (target.id === me.id ? rule.self : isSelfOrDescendant(deps.get, me.id, target)) return;
      throw lineageRefusal(rule, me, target, deps.get);
    }
    case 'reviewParent': {
      const r = reviewSeatOf(me);
      const ref = rule.issue(params);
      const own = r && (r.role === 'parent' || r.role === 'quick') && (!ref || deps.issueId(ref) === me.issueId);
      if (own) return;
      throw notReviewParentError(rule.action, me, ref ? deps.issueId(ref) : me.issueId);
    }
    case 'workAgent': {
      const ref = rule.issue(params);
      const issue = ref ? deps.issueId(ref) : me.issueId;
      if (issue && me.issueId === issue && !reviewSeatOf(me)) return;
      throw notWorkAgentError(rule.action, me, issue);
    }
  }
}
