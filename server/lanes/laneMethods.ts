// Lane RPC methods and HTTP routes (docs/spec.md: HTTP routes for lanes). Both transports call
// the same functions; HTTP bodies are validated with the same zod schemas.
import type { z } from 'zod';
import { isLive } from '../../shared/activity';
import {
  LaunchParams,
  ListParams,
  ReapBody,
  lanesReap,
  lanesGet,
  lanesList,
  lanesReport,
  lanesRuns,
  lanesShow,
  lanesStart,
  lanesStop,
  lanesWait,
  lanesBudget,
  lanesPush,
} from '../../shared/protocol/lanes';
import type { App } from '../app';
import type { HostLink } from '../hosts/hostLink';
import type { HttpRequest } from '../http/httpServer';
import type { ConversationsPort } from './conversationsPort';
import {
  badBodyError,
  judgeReportedError,
  laneOrRunKeyError,
  notALaneError,
  noSuchLaneError,
  resumeSecondLiveLaneError,
} from './laneRefusals';
import { launchLane } from './launch';
import { lanesContext } from './lanesContext';
import type { LanesContext } from './lanesContext';
import { LaneStore } from './laneStore';
import type { LaneRow } from './laneStore';
import { laneActivity, laneRecord, laneRecords } from './records';
import { pushForLane } from './lanePush';
import { fileReport } from './reports';
import { siteOf } from './laneSite';
import { runCards } from './runs';
import { chainLine, laneLines } from './show';
import { waitForReport } from './wait';
import { setBudget } from './budget';
import { enforceSpendCaps } from './spendGuard';
import { CALLER_TOKEN_PARAM } from '../../shared/protocol/rpc';

export function registerLanes(app: App, conversations: ConversationsPort, hostLink: HostLink): LanesContext {
  const ctx = lanesContext(app, new LaneStore(app.db), conversations, hostLink);

  const laneByRef = (ref: string): LaneRow => {
    const conv = conversations.resolve(ref);
    const lane = ctx.store.byId(conv.id);
    if (!lane) throw notALaneError(ref, true);
    return lane;
  };
  const laneOf = (p: { lane?: string; run?: string; key?: string }): LaneRow => {
    if (p.lane) return laneByRef(p.lane);
    if (!p.run || !p.key) throw laneOrRunKeyError();
    const lanes = ctx.store.ofRun(p.run).filter((l) => l.key === p.key);
    if (!lanes.length) throw noSuchLaneError(p.run, p.key);
    return lanes[lanes.length - 1];
  };
  const list = async (p: z.output<typeof ListParams>) => {
    const parentId = p.parent ? conversations.resolve(p.parent).id : undefined;
    // Whole runs (every lane, or every lane of one run): the records need read no lane again.
    const runLanes = p.run ? ctx.store.ofRun(p.run) : ctx.store.all();
    const rows = runLanes.filter(
      (l) => (parentId === undefined || l.parentId === parentId) && (p.key === undefined || l.key === p.key),
    );
    return { lanes: await laneRecords(ctx, rows, { runLanes, allLanes: p.run ? undefined : runLanes }) };
  };
  const show = async (p: { lane?: string; run?: string; key?: string }) => {
    const any = laneOf(p);
    const runLanes = ctx.store.ofRun(any.run);
    const lanes = await laneRecords(
      ctx,
      runLanes.filter((l) => l.key === any.key),
      { runLanes },
    );
    return { chain: chainLine(lanes), lines: lanes.flatMap(laneLines), lanes };
  };
  const launch = async (p: z.output<typeof LaunchParams>) => launchLane(ctx, p);

  app.rpc.handle(lanesStart, launch);
  app.rpc.handle(lanesList, list);
  app.rpc.handle(lanesGet, async (p) => laneRecord(ctx, laneOf(p)));
  app.rpc.handle(lanesShow, show);
  app.rpc.handle(lanesReport, async (p) => {
    const { lane, report } = await fileReport(ctx, p);
    return { lane: lane.name, report };
  });
  app.rpc.handle(lanesPush, (p, rc) => pushForLane(ctx, rc.caller, p));
  app.rpc.handle(lanesWait, (p, rc) => waitForReport(ctx, p, rc.signal));
  app.rpc.handle(lanesStop, async (p) => {
    const lane = laneByRef(p.lane);
    const { stopped } = await conversations.stop(lane.id, { timeoutMs: 30_000 });
    return { lane: lane.name, stopped };
  });
  app.rpc.handle(lanesReap, (p) => siteOf(ctx, laneByRef(p.lane)).reap(p));
  app.rpc.handle(lanesRuns, () => ({ cards: runCards(ctx) }));
  app.rpc.handle(lanesBudget, (p) => setBudget(ctx, p));
  enforceSpendCaps(ctx);

  // A lane's activity feeds its run card: tell the views when any lane changes.
  conversations.onChanged((id) => {
    if (ctx.store.isLane(id)) app.notify({ topic: 'runs', id });
  });

  // `svc tell` refuses a critic or verifier that already filed its done report (unless --force).
  conversations.addTellGuard((row, { force }) => {
    if (force || row.kind !== 'lane') return;
    const lane = ctx.store.byId(row.id);
    if (!lane || (lane.role !== 'critic' && lane.role !== 'verifier')) return;
    if (ctx.store.reports(lane.id).some((r) => r.status === 'done')) {
      throw judgeReportedError(lane);
    }
  });

  // `svc conv resume` of a lane refuses a second live lane of its run, key and role, as a start does.
  conversations.addResumeGuard((row) => {
    if (row.kind !== 'lane') return;
    const lane = ctx.store.byId(row.id);
    if (!lane) return;
    const other = ctx.store
      .ofSlot(lane.run, lane.key, lane.role)
      .find((l) => l.id !== lane.id && isLive(laneActivity(ctx, l)));
    if (other) throw resumeSecondLiveLaneError(lane, lane, other, laneActivity(ctx, other));
  });

  const parse = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
    const r = schema.safeParse(value ?? {});
    if (!r.success) throw badBodyError(r.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`));
    return r.data;
  };
  const asRecord = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
  const query = (req: HttpRequest) =>
    Object.fromEntries([...req.query.entries()].filter(([k]) => ['run', 'parent', 'key'].includes(k)));
  app.http.route('POST', '/api/lanes', async (req) => {
    // As over RPC: a body naming a `caller` carries that conversation's credential.
    const raw = req.json();
    const { [CALLER_TOKEN_PARAM]: token, ...rest } = (asRecord(raw) ?? {}) as Record<string, unknown>;
    const p = parse(LaunchParams, asRecord(raw) ? rest : raw);
    if (p.caller) conversations.proveCaller(p.caller, typeof token === 'string' ? token : undefined);
    return { status: 201, body: await launch(p) };
  });
  app.http.route('GET', '/api/lanes', async (req) => ({
    status: 200,
    body: await list(parse(ListParams, query(req))),
  }));
  app.http.route('GET', '/api/lanes/:name', async (req) => ({
    status: 200,
    body: await laneRecord(ctx, laneByRef(req.params.name)),
  }));
  app.http.route('POST', '/api/lanes/:name/reap', async (req) => ({
    status: 200,
    body: await siteOf(ctx, laneByRef(req.params.name)).reap(parse(ReapBody, req.json())),
  }));
  return ctx;
}
