// What the run record reads of other features: the lanes (their context), conversations
// (launchers, successors), landings and issues (review convoys). Wired in daemon/features.ts.
import type { Landing } from '../../shared/protocol/land';
import type { LanesContext } from '../lanes/lanesContext';

export interface RunRecordPorts {
  lanes: LanesContext;
  conversation(id: number):
    | {
        id: number;
        name: string;
        title: string;
        kind: string;
        parentId: number | null;
        harness: string;
        model: string;
        activity: string;
        cost: number | null;
      }
    | undefined;
  /** Ids of the handoff and fork successors of these conversations, followed down successor links. */
  successorsOf(ids: number[]): number[];
  /** The issue a conversation works on (a work agent), if any. */
  issueOf(id: number): string | undefined;
  issue(id: string): { title: string; workspace: string } | undefined;
  /** The landings of these builder lanes, oldest first (server/land/landingStore.ts). */
  landings(laneIds: number[]): Landing[];
}
