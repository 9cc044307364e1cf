// Every reason a daemon error (SvcError, or a DaemonRefusal in a client) can carry: the
// union of each domain's list. A reason not in a list does not compile, in the daemon or
// in a client matching on it.
import { AUTHORITY_REFUSALS } from './authority';
import type { AuthorityRefusal } from './authority';
import { CODEHOST_REFUSALS } from './codehost';
import type { CodehostRefusal } from './codehost';
import { CONFIG_REFUSALS } from './config';
import type { ConfigRefusal } from './config';
import { CONVERSATION_REFUSALS } from './conversations';
import type { ConversationRefusal } from './conversations';
import { DAEMON_REFUSALS } from './daemon';
import type { DaemonRefusalReason } from './daemon';
import { GIT_REFUSALS } from './git';
import type { GitRefusal } from './git';
import { HARNESS_REFUSALS } from './harness';
import type { HarnessRefusal } from './harness';
import { HOST_REFUSALS } from './hosts';
import type { HostRefusal } from './hosts';
import { HTTP_REFUSALS } from './http';
import type { HttpRefusalReason } from './http';
import { ISSUE_REFUSALS } from './issues';
import type { IssueRefusal } from './issues';
import { LAND_REFUSALS } from './land';
import type { LandRefusal } from './land';
import { LANE_REFUSALS } from './lanes';
import type { LaneRefusal } from './lanes';
import { NOTIFY_REFUSALS } from './notify';
import type { NotifyRefusal } from './notify';
import { PROJECT_REFUSALS } from './projects';
import type { ProjectRefusal } from './projects';
import { PUSH_REFUSALS } from './pushes';
import type { PushRefusal } from './pushes';
import { REAP_ERRORS, REAP_REFUSALS } from './reap';
import type { ReapError, ReapRefusal } from './reap';
import { REPORT_REFUSALS } from './reports';
import type { ReportRefusal } from './reports';
import { REVIEW_REFUSALS } from './review';
import type { ReviewRefusal } from './review';
import { RPC_REFUSALS } from './rpc';
import type { RpcRefusalReason } from './rpc';
import { RUN_RECORD_REFUSALS } from './runRecord';
import type { RunRecordRefusal } from './runRecord';
import { SPEND_REFUSALS } from './spend';
import type { SpendRefusal } from './spend';

export type SvcReason =
  | AuthorityRefusal
  | CodehostRefusal
  | ConfigRefusal
  | ConversationRefusal
  | DaemonRefusalReason
  | GitRefusal
  | HarnessRefusal
  | HostRefusal
  | HttpRefusalReason
  | IssueRefusal
  | LandRefusal
  | LaneRefusal
  | NotifyRefusal
  | ProjectRefusal
  | PushRefusal
  | ReapRefusal
  | ReapError
  | ReportRefusal
  | ReviewRefusal
  | RpcRefusalReason
  | RunRecordRefusal
  | SpendRefusal;

const ALL: ReadonlySet<string> = new Set<SvcReason>([
  ...AUTHORITY_REFUSALS,
  ...CODEHOST_REFUSALS,
  ...CONFIG_REFUSALS,
  ...CONVERSATION_REFUSALS,
  ...DAEMON_REFUSALS,
  ...GIT_REFUSALS,
  ...HARNESS_REFUSALS,
  ...HOST_REFUSALS,
  ...HTTP_REFUSALS,
  ...ISSUE_REFUSALS,
  ...LAND_REFUSALS,
  ...LANE_REFUSALS,
  ...NOTIFY_REFUSALS,
  ...PROJECT_REFUSALS,
  ...PUSH_REFUSALS,
  ...REAP_REFUSALS,
  ...REAP_ERRORS,
  ...REPORT_REFUSALS,
  ...REVIEW_REFUSALS,
  ...RPC_REFUSALS,
  ...RUN_RECORD_REFUSALS,
  ...SPEND_REFUSALS,
]);

/** Whether a reason read off the wire (or from svc's helper on a host) is one svc knows. */
export function isSvcReason(r: unknown): r is SvcReason {
  return typeof r === 'string' && ALL.has(r);
}
