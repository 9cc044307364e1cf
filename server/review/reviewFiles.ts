// A review file (a reviewer's `<lane>.md`, the parent's `synthesis.md`, the quick agent's
// `review.md`) is written by an agent in the workspace and read by the daemon: read
// as the agent's file (server/util/laneFileRead.ts), so a link planted there is not
// followed out of the workspace and a FIFO never blocks the daemon. Such a file reads as
// no report, as a missing one does.
import { LaneFileError, readLaneFile } from '../util/laneFileRead';

/** The most a review report may hold. */
const REVIEW_FILE_MAX = 4 * 1024 * 1024;

/** The text of `file` in `workspace`; null when there is none (or none svc will read). */
export function readReviewFile(workspace: string, file: string): string | null {
  try {
    return readLaneFile(file, [workspace], REVIEW_FILE_MAX);
  } catch (e) {
    if (e instanceof LaneFileError) return null;
    throw e;
  }
}
