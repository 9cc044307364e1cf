// Who is calling, resolved once per request before any method runs. A person is a caller
// without an agent credential (the person's terminal, the extension, HTTP with the bearer
// token). An agent is a caller whose request proves its conversation: either it names the
// conversation and carries that conversation's credential (the shim adds both from
// $SVC_CONVERSATION and $SVC_CALLER_TOKEN), or it arrives over a connection the daemon
// opened for that one agent (a connection identity), which needs no credential and cannot
// be talked out of its conversation by what a request says.
import type { ConversationRow } from '../conversations/conversationStore';
import { callerMismatchError, connectionIsAgentError } from './authorityRefusals';

export type Caller = { kind: 'person' } | { kind: 'agent'; conv: ConversationRow };

export const PERSON: Caller = Object.freeze({ kind: 'person' });

/** Set on a listening socket whose every connection is one agent's (see RpcServer.listen). */
export interface ConnectionIdentity {
  conversation: number;
}

/** What a request says about its caller. */
export interface CallerClaim {
  /** The envelope's conversation (the shim's $SVC_CONVERSATION). */
  conversation?: string;
  /** The envelope's credential ($SVC_CALLER_TOKEN). */
  token?: string;
  /** The method's own `caller` param, for methods that have one. */
  param?: string;
}

export interface CallerDeps {
  /** `#id`, id or name; throws notFound. */
  resolve(ref: string): ConversationRow;
  /** Throws unless `token` is the credential of `row`. */
  prove(row: ConversationRow, token: string | undefined): void;
}

export function resolveCaller(deps: CallerDeps, claim: CallerClaim, connection?: ConnectionIdentity): Caller {
  const named = claimedRow(deps, claim);
  if (connection) {
    const own = deps.resolve(String(connection.conversation));
    // A connection of one agent is that agent whatever the request says: a claim of
    // another conversation (or of none, which over this socket would read as a person)
    // cannot change it, and a different claim is refused rather than silently rewritten.
    if (named && named.id !== own.id) throw connectionIsAgentError(own, named);
    return { kind: 'agent', conv: own };
  }
  if (!named) return PERSON;
  deps.prove(named, claim.token);
  return { kind: 'agent', conv: named };
}

function claimedRow(deps: CallerDeps, claim: CallerClaim): ConversationRow | undefined {
  const envelope = claim.conversation?.trim() ? deps.resolve(claim.conversation) : undefined;
  const param = claim.param?.trim() ? deps.resolve(claim.param) : undefined;
  if (envelope && param && envelope.id !== param.id) throw callerMismatchError(envelope, param);
  return envelope ?? param;
}

export const describeCaller = (c: Caller): string =>
  c.kind === 'person' ? 'the person' : `#${c.conv.id} (${c.conv.name})`;
