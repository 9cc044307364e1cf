// Puts the authority rules in front of every RPC method and HTTP route: the caller is
// resolved once per request (caller.ts) and judged against the one table
// (authorityTable.ts) before the method runs. Registered after every feature, and it
// checks that each registered method has a row, so a method without one stops the
// daemon's start instead of running unguarded.
import type { App } from '../app';
import type { ConversationService } from '../conversations/conversationService';
import { ruleOf } from './authorityTable';
import { authorize } from './authorize';
import type { AuthorityDeps } from './authorize';
import { resolveCaller } from './caller';
import type { CallerDeps } from './caller';

/** What authority needs of the issues: an issue's id from how a request names it (handed in: issues/ sits above). */
export interface IssueIds {
  resolve(ref: string): { id: string };
}

export function registerAuthority(app: App, deps: { conv: ConversationService; issues: IssueIds }): void {
  const missing = app.rpc.methods().filter((m) => !ruleOf(m));
  if (missing.length)
    throw new Error(`no row in the authority table (server/authority/authorityTable.ts) for ${missing.join(', ')}`);
  const callers: CallerDeps = {
    resolve: (ref) => deps.conv.resolve(ref),
    prove: (row, token) => deps.conv.credentials.check(row, token),
  };
  const rules: AuthorityDeps = {
    get: (id) => deps.conv.get(id),
    resolve: (ref) => deps.conv.resolve(ref),
    issueId: (ref) => deps.issues.resolve(ref).id,
  };
  app.rpc.guard({
    resolve: (claim, connection) => resolveCaller(callers, claim, connection),
    authorize: (method, caller, params) => authorize(rules, method, caller, params),
  });
  app.http.guard({
    resolve: (claim) => resolveCaller(callers, claim),
    authorize: (key, caller, params) => authorize(rules, key, caller, params),
  });
}
