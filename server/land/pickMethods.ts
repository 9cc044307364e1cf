// `lanes/pick` over RPC (`svc lane pick`): the caller the daemon resolved is judged by
// pickAuthority.ts, then pick.ts ranks the candidates.
import { lanesPick } from '../../shared/protocol/land';
import type { App } from '../app';
import type { ConversationsPort } from '../lanes/conversationsPort';
import type { LaneStore } from '../lanes/laneStore';
import { pickBest } from './pick';

export function registerPick(app: App, deps: { conversations: ConversationsPort; lanes: LaneStore }): void {
  app.rpc.handle(lanesPick, (p, ctx) => pickBest({ app, ...deps }, p, ctx.caller));
}
