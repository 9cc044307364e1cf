// What a client says when the daemon connection closes before a request was answered
// (the daemon died, restarted or was stopped). Shared by the shim and the extension so
// both tell the user the same thing: whether the action may have happened, and the
// command that shows whether it did. A dropped connection is never a success.
import { CLOSED_BEFORE_ANSWER, WRITE_FAILED } from './rpcClient';

/** Codes for a request cut off by the transport (vscode-jsonrpc's, which the extension's
 *  languageclient uses and rpcClient.ts reuses): MessageWriteError, MessageReadError,
 *  PendingResponseRejected, ConnectionInactive. */
export const TRANSPORT_ERROR_CODES: ReadonlySet<number> = new Set([WRITE_FAILED, -32098, CLOSED_BEFORE_ANSWER, -32096]);

/** Methods that only read: a dropped answer changed nothing, so running again is safe. */
const READ_ONLY = new Set([
  'config/get',
  'config/models',
  'config/roles',
  'conversations/list',
  'conversations/show',
  'conversations/log',
  'conversations/status',
  'daemon/status',
  'issues/list',
  'issues/show',
  'lanes/list',
  'lanes/get',
  'lanes/show',
  'lanes/wait',
  'lanes/runs',
  'pr/list',
  'pr/show',
  'projects/list',
  'review/show',
  'review/wait',
  'transcript/read',
]);

type Params = Record<string, unknown> | undefined;

const arg = (p: Params, key: string): string | undefined => {
  const v = p?.[key];
  return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
};

/** The shell command that shows whether a state-changing request took effect. */
export function checkCommand(method: string, p: Params): string {
  const lane = arg(p, 'lane');
  const conv = arg(p, 'conv') ?? arg(p, 'source');
  const issue = arg(p, 'issue');
  switch (method) {
    case 'lanes/start': {
      const run = arg(p, 'run');
      return run ? `svc lane list --run ${run}` : 'svc lane list';
    }
    case 'lanes/report': {
      const caller = arg(p, 'caller');
      return caller ? `svc lane show ${caller}` : 'svc lane list';
    }
    case 'lanes/stop':
    case 'lanes/reap':
      return lane ? `svc lane show ${lane}` : 'svc lane list';
    case 'conversations/new':
    case 'conversations/handoff':
    case 'conversations/fork':
      return 'svc conv list';
    case 'conversations/tell':
      return conv ? `svc conv log ${conv}` : 'svc conv list';
    case 'issues/new':
      return 'svc issue list';
    case 'projects/add':
      return 'svc project list';
    case 'config/set':
      return arg(p, 'key') ? `svc config get ${arg(p, 'key')}` : 'svc config get';
    case 'daemon/stop':
      return 'svc daemon status';
    default:
      if (method.startsWith('pr/')) return 'svc pr list';
      if (issue && (method.startsWith('issues/') || method.startsWith('review/'))) return `svc show ${issue}`;
      if (conv) return `svc conv show ${conv}`;
      return 'svc status';
  }
}

export const isReadOnly = (method: string): boolean => READ_ONLY.has(method);

/** The sentence printed when the connection closed while `method` waited for its answer. */
export function connectionLostMessage(method: string, params: unknown): string {
  const p = (typeof params === 'object' && params !== null ? params : undefined) as Params;
  const head = `svc: the connection to the daemon closed before it answered ${method} (the daemon stopped or died)`;
  if (isReadOnly(method)) return `${head}; nothing was changed, so run the same command again.`;
  return `${head}; the action may or may not have happened: check with \`${checkCommand(method, p)}\` before trying again.`;
}

/** A request whose connection closed before its answer came. Never a success. */
export class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';
  constructor(
    readonly method: string,
    params: unknown,
  ) {
    super(connectionLostMessage(method, params));
  }
}
