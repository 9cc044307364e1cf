// `svc lane land` and the landing queue over RPC, and the queue's recovery at daemon start:
// every landing a stop (or a kill -9) left queued or running is run again, in order; one
// that had already moved the base is found landed (landing.ts) and not run twice.
import { lanesLand, lanesLandings } from '../../shared/protocol/land';
import type { Landing } from '../../shared/protocol/land';
import type { App } from '../app';
import type { CodeHosts } from '../codehost/codeHosts';
import type { ConversationsPort } from '../lanes/conversationsPort';
import { notALaneError } from '../lanes/laneRefusals';
import type { LaneStore } from '../lanes/laneStore';
import { logger } from '../util/log';
import { stopAllChecks } from './checks';
import { LandQueue } from './landQueue';
import { landNoDoneReportError, landNotABuilderError } from './landRefusals';
import { LandingStore } from './landingStore';
import type { LandContext } from './landing';

const log = logger('land');

export interface LandDeps {
  conversations: ConversationsPort;
  lanes: LaneStore;
  /** The code hosts: a GitHub project lands through its PR (server/land/landOnGithub.ts). */
  hosts?: CodeHosts;
  /** After a landing moved the base (the siblings' notice, server/land/siblings.ts, once wired). */
  afterLanding?: (landing: Landing) => Promise<void> | void;
}

export function registerLand(app: App, deps: LandDeps): { store: LandingStore } {
  const store = new LandingStore(app.db);
  const ctx: LandContext = {
    app,
    store,
    laneOf: (id) => {
      const l = deps.lanes.byId(id);
      return l && { lanesRoot: l.lanesRoot, sandbox: l.sandbox, branch: l.branch };
    },
    githubOf: (key) => {
      const hosts = deps.hosts;
      if (!hosts || app.config.project(key).code_host !== 'github') return undefined;
      return { host: hosts.forProject(key), reviewed: (pr) => hosts.reviewedShas(pr) };
    },
    afterLanding: deps.afterLanding ?? (() => undefined),
  };
  const queue = new LandQueue(ctx);
  app.onStop(() => stopAllChecks());

  app.rpc.handle(lanesLand, async (p) => {
    const conv = deps.conversations.resolve(p.lane);
    const lane = deps.lanes.byId(conv.id);
    if (!lane) throw notALaneError(p.lane, true);
    if (lane.role !== 'builder') throw landNotABuilderError(lane);
    // The newest done head of the builder's key, whichever iteration filed it.
    const slot = deps.lanes.ofSlot(lane.run, lane.key, 'builder');
    const done = slot
      .flatMap((l) => deps.lanes.reports(l.id).map((r) => ({ lane: l, r })))
      .filter((x) => x.r.status === 'done' && x.r.headSha)
      .sort((a, b) => a.r.at - b.r.at)
      .pop();
    if (!done) throw landNoDoneReportError(lane);
    const project = app.config.project(lane.project);
    const id = store.insert({
      project: lane.project,
      base: project.default_branch,
      laneId: done.lane.id,
      headSha: done.r.headSha!,
      method: project.gauntlet?.land?.method ?? 'merge',
      at: app.now(),
    });
    const outcome = queue.enqueue(id, lane.project, project.default_branch);
    app.notify({ topic: 'runs', id: lane.id });
    if (!p.wait) return { landing: store.get(id)! };
    const refusal = await outcome;
    if (refusal) throw refusal;
    return { landing: store.get(id)! };
  });
  app.rpc.handle(lanesLandings, async (p) => ({
    landings: store.recent().filter((l) => !p.run || l.run === p.run),
  }));

  const unfinished = store.unfinished();
  if (unfinished.length) log.info(`resuming ${unfinished.length} landing(s) a daemon stop left unfinished`);
  for (const l of unfinished) void queue.enqueue(l.id, l.project, l.base);
  return { store };
}
