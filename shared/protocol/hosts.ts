// Host methods (lanes on other hosts over SSH). Senders: the shim (`svc host
// list|check`) and the extension. Who must stay in sync: server/hosts/hostMethods.ts,
// cli/commands/hostFormat.ts, docs/protocol.md.
import { z } from 'zod';
import { HostName } from '../config';
import { CheckStatus } from './doctor';
import { request } from './rpc';

export const HostInfo = z.object({
  name: z.string(),
  /** The SSH destination, as configured. */
  ssh: z.string(),
  /** The lanes root on the host, as configured (`~/…` is the SSH user's home). */
  lanesRoot: z.string(),
  options: z.array(z.string()),
  /** A shared (ControlMaster) connection to the host is open now. */
  connected: z.boolean(),
  /** Roles whose lanes go to this host by default, as `<project>/<role>`. */
  defaultFor: z.array(z.string()),
});
export type HostInfo = z.infer<typeof HostInfo>;

/** Client → daemon. The hosts of config.yaml `hosts:`. */
export const hostsList = request('hosts/list', z.object({}).strict(), z.object({ hosts: z.array(HostInfo) }));

export const HostCheck = z.object({
  /** `reachable`, `git`, `node`, `harness`, `lanes root`, `disk`. */
  what: z.string(),
  status: CheckStatus,
  text: z.string(),
  fix: z.string().nullable(),
});
export type HostCheck = z.infer<typeof HostCheck>;

export const HostCheckResult = z.object({
  host: z.string(),
  ssh: z.string(),
  checks: z.array(HostCheck),
  problems: z.number().int(),
});
export type HostCheckResult = z.infer<typeof HostCheckResult>;

/** Client → daemon. Connects to a host and checks what lanes need there: reachable, git, node, the harness, the lanes root, disk. */
export const hostsCheck = request(
  'hosts/check',
  z.object({ name: HostName, harness: z.string().min(1).max(32).optional() }).strict(),
  HostCheckResult,
);
