// The operations of svc's helper on a host (see server/hostHelperMain.ts). Each takes plain
// JSON and reuses the daemon's own modules, so the rules are the same on every machine.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { helperRefusals } from '../hostRefusals';
import { branchExists, git, gitFacts, gitOk, resolveCommit } from '../../git/git';
import type { GitFacts } from '../../git/git';
import { groupMembers, procCommand } from '../../util/processGroup';
import { reportFacts } from '../../git/reportFacts';
import { isInside, realPathLoose } from '../../util/realPath';
import { laneFolders, LaneFileError, readLaneFile } from '../../util/laneFileRead';
import type { LaneFileProblem } from '../../util/laneFileRead';
import { sidecarPathOf } from '../../reap/parkDisk';
import { checkLaneDir } from '../../reap/reapChecks';
import { reapLaneDir } from '../../reap/reapLaneDir';
import type { ReapReport } from '../../../shared/format/reapReport';
import { alive, readExit, readState, stopRelay } from './attach';
import type { RelayExit } from './frames';
import { hostSandbox } from './hostSandbox';
import type { HostSandboxRequest } from './hostSandbox';

export type HostRequest =
  | {
      op: 'prepare';
      origin: string;
      repoId: string;
      lanesRoot: string;
      dir: string;
      kind: 'worktree' | 'play';
      branch: string | null;
      start: string | null;
      sparse?: string[];
      reuse: boolean;
    }
  | { op: 'facts'; dirs: string[] }
  | { op: 'reportFacts'; dir: string }
  | { op: 'readLaneFile'; dir: string; path: string; maxBytes: number }
  | { op: 'agent'; runDir: string; action: 'status' }
  | { op: 'agent'; runDir: string; action: 'signal'; signal: NodeJS.Signals }
  | { op: 'agent'; runDir: string; action: 'stop'; why: string }
  | {
      op: 'reap';
      dir: string;
      lanesRoot: string;
      kind: 'worktree' | 'play';
      park: boolean;
      patchFile: string;
      keepBranchName?: string;
      conv: { id: number; name: string };
    }
  | { op: 'reapCheck'; dir: string; lanesRoot: string; kind: 'worktree' | 'play'; park: boolean }
  | ({ op: 'sandbox' } & HostSandboxRequest);

/** What reading a lane's file on a host gives: its text, or why it was not read. */
export type HostLaneFile = { text: string } | { problem: LaneFileProblem };

/** The bare clone of a project's origin on this host: ~/.svc-host/repos/<repoId>.git. */
export function repoDir(repoId: string): string {
  return path.join(os.homedir(), '.svc-host', 'repos', `${repoId}.git`);
}

/**
 * How a lane's folder is made (lanes/workdir.ts: a worktree, or a plain folder to play in),
 * handed in by the helper's entry point (server/hostHelperMain.ts): hosts sits below lanes.
 */
export interface LaneDirMaker {
  createWorktree(s: {
    repo: string;
    dir: string;
    branch: string | null;
    start: string;
    sparse?: string[];
  }): Promise<void>;
  createPlayDir(dir: string): void;
}

export async function hostOp(r: HostRequest, lanes: LaneDirMaker): Promise<unknown> {
  switch (r.op) {
    case 'prepare':
      return prepare(r, lanes);
    case 'facts': {
      const out: Record<string, GitFacts> = {};
      await Promise.all(
        r.dirs.map(async (d) => {
          const f = await gitFacts(d).catch(() => undefined);
          if (f) out[d] = f;
        }),
      );
      return out;
    }
    case 'reportFacts':
      return reportFacts(r.dir);
    case 'readLaneFile':
      // Read by the rules the daemon reads a local lane's file by (no link, FIFO or device,
      // only inside the lane's own folders, bounded), and refused in the same words.
      try {
        return { text: readLaneFile(r.path, laneFolders(r.dir), r.maxBytes) };
      } catch (e) {
        if (e instanceof LaneFileError) return { problem: e.problem };
        throw e;
      }
    case 'agent':
      return agentOp(r);
    case 'reap':
      return reap(r);
    case 'reapCheck':
      // What the reap would refuse, before the daemon stops the agent (nothing is changed).
      await checkLaneDir({ dir: r.dir, lanesRoot: r.lanesRoot, kind: r.kind, park: r.park });
      return { ok: true };
    case 'sandbox':
      // The command line that runs the agent in its sandbox here, or why the sandbox cannot start.
      return hostSandbox(r);
  }
}

export interface AgentStatus {
  /** svc's relay for the agent still runs. */
  relay: boolean;
  /** Live processes of the agent's group. */
  processes: { pid: number; command: string }[];
  /** How the agent ended, once it has. */
  exit: RelayExit | null;
}

/** An agent under svc's relay (relay.ts), found by its run folder: the stop door and reap's process check on the host. */
async function agentOp(r: Extract<HostRequest, { op: 'agent' }>): Promise<unknown> {
  const state = readState(r.runDir);
  if (r.action === 'stop') return stopRelay(r.runDir, r.why, true);
  if (r.action === 'signal') {
    if (!state) return false;
    try {
      process.kill(-state.pgid, r.signal);
      return true;
    } catch {
      return false;
    }
  }
  const status: AgentStatus = {
    relay: state !== null && alive(state.relayPid),
    processes: state ? groupMembers(state.pgid).map((pid) => ({ pid, command: procCommand(pid) ?? '(gone)' })) : [],
    exit: readExit(r.runDir),
  };
  return status;
}

type Prepare = Extract<HostRequest, { op: 'prepare' }>;

/** The lanes root exists and holds the lane directory (spec launch rule 7, on the host). */
function checkRoot(lanesRoot: string, dir: string): void {
  if (!fs.existsSync(lanesRoot) || !fs.statSync(lanesRoot).isDirectory()) {
    throw helperRefusals.lanesRootMissing(lanesRoot);
  }
  const real = fs.realpathSync(lanesRoot);
  const home = realPathLoose(os.homedir()) ?? os.homedir();
  if (!isInside(real, home) || real === home) throw helperRefusals.lanesRootOutsideHome(real, home);
  const lane = realPathLoose(dir);
  if (lane === null || !isInside(lane, real)) throw helperRefusals.outsideLanesRoot(dir, real);
}

async function prepare(r: Prepare, lanes: LaneDirMaker): Promise<{ head: string | null }> {
  checkRoot(r.lanesRoot, r.dir);
  if (r.kind === 'play') {
    if (!r.reuse) lanes.createPlayDir(r.dir);
    return { head: null };
  }
  const repo = repoDir(r.repoId);
  if (!fs.existsSync(path.join(repo, 'HEAD'))) {
    fs.mkdirSync(path.dirname(repo), { recursive: true, mode: 0o700 });
    const tmp = `${repo}.${process.pid}.tmp`;
    fs.rmSync(tmp, { recursive: true, force: true });
    await git(path.dirname(repo), ['clone', '--quiet', '--bare', '--', r.origin, tmp]);
    // Remote-tracking refs as in a normal clone, so origin/<branch> and @{u} mean what they mean locally.
    await git(tmp, ['config', 'remote.origin.fetch', '+refs/heads/*:refs/remotes/origin/*']);
    fs.renameSync(tmp, repo);
  } else if ((await git(repo, ['remote', 'get-url', 'origin'])).trim() !== r.origin) {
    await git(repo, ['remote', 'set-url', 'origin', r.origin]);
  }
  await git(repo, ['fetch', '--quiet', '--prune', '--no-tags', 'origin']);
  if (r.reuse) {
    if (!fs.existsSync(r.dir)) throw helperRefusals.reuseDirGone(r.dir);
    return { head: (await git(r.dir, ['rev-parse', 'HEAD'])).trim() };
  }
  if (r.branch && (await branchExists(repo, r.branch))) throw helperRefusals.branchExists(r.branch);
  // A start the daemon could not resolve (a previous iteration's branch lives on the host): resolve it here.
  let start = r.start!;
  if (!/^[0-9a-f]{40}$/.test(start)) {
    const local = await gitOk(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${start}^{commit}`]);
    start = await resolveCommit(repo, local ? `refs/heads/${start}` : `refs/remotes/origin/${start}`, 'start point');
  } else if (!(await gitOk(repo, ['cat-file', '-e', `${start}^{commit}`]))) {
    throw helperRefusals.startNotOnOrigin(start);
  }
  await lanes.createWorktree({ repo, dir: r.dir, branch: r.branch, start, sparse: r.sparse });
  return { head: start };
}

async function reap(r: Extract<HostRequest, { op: 'reap' }>): Promise<{
  report: ReapReport;
  patch: { file: string; sha256: string } | null;
  sidecar: { file: string; sha256: string } | null;
}> {
  const report = await reapLaneDir({
    conv: r.conv,
    dir: r.dir,
    kind: r.kind,
    lanesRoot: r.lanesRoot,
    park: r.park,
    keep: true, // the daemon archives, after the patch is home
    patchFile: r.patchFile,
    stop: async () => true, // the daemon stopped the harness through the stop door first
    archive: () => undefined,
    keepBranchName: r.keepBranchName,
    excludePids: [process.ppid],
  });
  const digest = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
  const patch = report.park ? { file: report.park.patchFile, sha256: digest(report.park.patchFile) } : null;
  const sidecarFile = report.park ? sidecarPathOf(report.park.patchFile) : null;
  const sidecar = sidecarFile && fs.existsSync(sidecarFile) ? { file: sidecarFile, sha256: digest(sidecarFile) } : null;
  return { report, patch, sidecar };
}
