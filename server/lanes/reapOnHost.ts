// `svc lane reap` of a lane on another host: the same sequence with the same guarantees,
// run where the worktree is. Step 1 (the stop door) runs here, over SSH; steps 2–6 run on
// the host in svc's helper, which is the same reapLaneDir code (the lanes-root check, the
// process check on the host's /proc, park with its verification); a parked patch is then
// copied home beside the others (~/.svc/agents/conv-<name>/) and checked byte for byte;
// step 7 (archive) runs here, only after the patch is home.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isLive } from '../../shared/activity';
import { errorMessage } from '../../shared/errors';
import type { ArchiveOutcome, ReapReport } from '../../shared/format/reapReport';
import { sshCommand } from '../hosts/remoteShell';
import { sidecarPathOf } from '../reap/parkDisk';
import { harnessAliveError } from '../reap/reapErrors';
import { REAP_STOP_WAIT_S } from '../reap/reapLaneDir';
import { parkCopyFailedError } from './laneRefusals';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { earlierParked, patchPath, unreapedChildren } from './reapParts';
import { onHost } from './laneWhere';
import { laneActivity } from './records';

interface HostReap {
  report: ReapReport;
  patch: { file: string; sha256: string } | null;
  sidecar: { file: string; sha256: string } | null;
}

export async function reapOnHost(
  ctx: LanesContext,
  lane: LaneRow,
  opts: { park: boolean; keep: boolean },
): Promise<ReapReport> {
  const host = lane.host!;
  const convs = ctx.conversations;
  const where = {
    dir: lane.dir,
    lanesRoot: lane.lanesRoot,
    kind: lane.gitBacked ? ('worktree' as const) : ('play' as const),
    park: opts.park,
  };
  // A refused reap changes nothing, the agent included: what the host's reap would refuse
  // (a dirty tree without --park…) is asked there before the stop door is used, and a host
  // that cannot be reached refuses here, before a stop could be queued to land on reconnection.
  await ctx.hostOps.call(host, { op: 'reapCheck', ...where });
  if (isLive(laneActivity(ctx, lane)) || convs.facts(lane.id).alive) {
    const { stopped } = await convs.stop(lane.id, { timeoutMs: REAP_STOP_WAIT_S * 1000 });
    if (!stopped || convs.facts(lane.id).alive)
      throw harnessAliveError(String(lane.id), REAP_STOP_WAIT_S, await convs.groupProcesses(lane.id).catch(() => []));
  }
  const ready = await ctx.hostOps.prepare(host);
  const local = patchPath(ctx, lane);
  const remotePatch = `${ready.home}/.svc-host/parked/conv-${lane.name}/${path.basename(local)}`;
  const r = await ctx.hostOps.call<HostReap>(host, {
    op: 'reap',
    conv: { id: lane.id, name: lane.name },
    dir: lane.dir,
    lanesRoot: lane.lanesRoot,
    kind: lane.gitBacked ? 'worktree' : 'play',
    park: opts.park,
    patchFile: remotePatch,
    keepBranchName: `${lane.run}/${lane.key}-${lane.role}-i${lane.iteration}-kept`,
  });
  const report = r.report;
  report.conv = { id: lane.id, name: lane.name };
  if (r.patch && report.park) {
    const dest = sshCommand(ctx.hostOps.host(host).spec);
    await bringHome(ctx, host, r.patch, local);
    if (r.sidecar) await bringHome(ctx, host, r.sidecar, sidecarPathOf(local));
    // The restore runs where the worktree was: on the host, with the patch kept there too.
    report.park = {
      ...report.park,
      patchFile: local,
      restoreCommand: onHost(dest, report.park.restoreCommand),
      restoreAfterRemoveCommand: onHost(dest, report.park.restoreAfterRemoveCommand),
    };
  }
  ctx.store.markReaped(lane.id, ctx.now());
  report.earlierParked = earlierParked(ctx, lane.id, report);
  let archive: ArchiveOutcome = { state: 'kept' };
  if (!opts.keep) {
    try {
      convs.archive(lane.id);
      archive = { state: 'archived' };
    } catch (e) {
      archive = { state: 'failed', error: errorMessage(e) };
    }
  }
  report.archive = archive;
  report.orphaned = lane.role === 'orchestrator' ? unreapedChildren(ctx, lane) : [];
  ctx.app.notify({ topic: 'lanes', id: lane.id });
  ctx.app.notify({ topic: 'runs' });
  return report;
}

/** Copies a file of the host home and proves it arrived whole (same SHA-256 as the host computed). */
async function bringHome(
  ctx: LanesContext,
  host: string,
  remote: { file: string; sha256: string },
  local: string,
): Promise<void> {
  const bytes = await ctx.hostOps.fetch(host, remote.file);
  const got = crypto.createHash('sha256').update(bytes).digest('hex');
  if (got !== remote.sha256) {
    throw parkCopyFailedError(remote.file, host, got, remote.sha256);
  }
  fs.mkdirSync(path.dirname(local), { recursive: true, mode: 0o700 });
  fs.writeFileSync(local, bytes, { flag: 'wx', mode: 0o600 });
}
