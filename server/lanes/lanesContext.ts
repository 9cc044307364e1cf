// What every lane operation works with: the app, the lane store, the conversation port,
// and the lane event bus (report filed), created once in laneMethods.ts.
import { EventEmitter } from 'node:events';
import type { App } from '../app';
import { dirtyFlagsOf } from '../git/dirtyFlagsOf';
import { ownRepoDirtyFlags } from '../git/keeperDirtyFlags';
import type { ConversationsPort } from './conversationsPort';
import type { HostLink } from '../hosts/hostLink';
import { sshCommand } from '../hosts/remoteShell';
import { keptFactsStore } from './keptFactsStore';
import type { LaneStore } from './laneStore';
import type { LaneReader } from './records';
import { parkedOfLane } from './parkedOfLane';
import { ParkedFolders } from './parkedFolders';

export interface LanesContext extends LaneReader {
  app: App;
  /** Worktrees, git facts, reports and reap of lanes on other hosts, over SSH. */
  hostOps: HostLink;
  /** Emits `report` (convId) when a lane files a report. */
  events: EventEmitter;
}

export function lanesContext(
  app: App,
  store: LaneStore,
  conversations: ConversationsPort,
  hostOps: HostLink,
): LanesContext {
  let kind: 'plain' | 'kept' | undefined;
  try {
    kind = app.config.config().git?.dirty_flags;
  } catch {
    kind = undefined; // a config that does not parse is the doctor's to report; the default runs
  }
  const gitFacts = dirtyFlagsOf(kind, () => keptFactsStore(app.db));
  const ownRepoFacts = ownRepoDirtyFlags(app.paths.socket, app.paths.home, () => app.notify({ topic: 'lanes' }));
  app.onStop(() => {
    gitFacts.close();
    ownRepoFacts.close();
  });
  const parkedFolders = new ParkedFolders();
  return {
    app,
    store,
    conversations,
    gitFacts,
    ownRepoFacts,
    hostOps,
    repoOf: (project) => app.config.projects().projects[project]?.path,
    gauntletOf: (project) => app.config.projects().projects[project]?.gauntlet,
    baseOf: (project) => app.config.projects().projects[project]?.default_branch,
    events: new EventEmitter().setMaxListeners(0),
    now: () => app.now(),
    parked: (row) => parkedOfLane(app.paths.agents, row, (host) => sshCommand(hostOps.host(host).spec), parkedFolders),
  };
}
