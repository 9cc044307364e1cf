// Where a lane lives, for everything done to it after its launch: on this machine, or on a
// host over SSH (placement.ts and hostPlacement.ts are the same seam for the launch). Code
// that reports, reads a verdict, reaps, restores or lists a lane asks its site and never
// which one it has; a lint rule (eslint.config.mjs, "placement") keeps `host` conditionals
// in these files and laneWhere.ts (the same answers for a bare row, where no context is).
import type { ReapReport } from '../../shared/format/reapReport';
import { reportFacts } from '../git/reportFacts';
import type { ReportFacts } from '../git/reportFacts';
import { laneFolders, LaneFileError, readLaneFile } from '../util/laneFileRead';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { reapHere } from './reapHere';
import { reapOnHost } from './reapOnHost';

export interface LaneSite {
  /** The folders a refusal names as the lane's own: here its directory and git dir, on a host its directory there. */
  readonly folders: readonly string[];
  /** A file the lane wrote or its agent named, read where the lane lives by laneFileRead.ts's rules. Throws LaneFileError. */
  readLaneFile(file: string, maxBytes: number): Promise<string>;
  /** The head, branch and cleanliness a report records. */
  reportFacts(): Promise<ReportFacts>;
  /** The spec's Reap steps, run where the worktree is. */
  reap(opts: { park: boolean; keep: boolean }): Promise<ReapReport>;
}

export function siteOf(ctx: LanesContext, lane: LaneRow): LaneSite {
  const host = lane.host;
  if (host === null) {
    const folders = laneFolders(lane.dir);
    return {
      folders,
      readLaneFile: (file, maxBytes) => Promise.resolve().then(() => readLaneFile(file, folders, maxBytes)),
      reportFacts: () => reportFacts(lane.dir),
      reap: (opts) => reapHere(ctx, lane, opts),
    };
  }
  return {
    folders: [lane.dir],
    async readLaneFile(file, maxBytes) {
      const read = await ctx.hostOps.readLaneFile(host, lane.dir, file, maxBytes);
      if ('problem' in read) throw new LaneFileError(read.problem);
      return read.text;
    },
    reportFacts: () => ctx.hostOps.reportFacts(host, lane.dir),
    reap: (opts) => reapOnHost(ctx, lane, opts),
  };
}
