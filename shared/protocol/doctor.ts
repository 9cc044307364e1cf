// doctor/run: what svc needs to run agents, checked where agents run (the daemon owns the
// environment and config they inherit). Senders: `svc doctor` and the extension ("svc:
// Doctor", and the harness pickers, which mark harnesses that are not installed).
// Who must stay in sync: server/doctor/, shared/format/doctorText.ts, docs/protocol.md.
import { z } from 'zod';
import { request } from './rpc';

/** `problem`: svc or a lane will fail until fixed (counts for the exit code); `note`: worth knowing. */
export const CheckStatus = z.enum(['ok', 'problem', 'note']);
export type CheckStatus = z.infer<typeof CheckStatus>;

export const DoctorCheck = z.object({
  /** `harness`, `node`, `git`, `svcHome`, `cli` (the svc command on a login shell's PATH), `daemon`, `codehost`, `roles`, `sandbox`, `notify`. */
  area: z.string(),
  /** What was checked: a harness name, a file, a project key. */
  subject: z.string(),
  status: CheckStatus,
  text: z.string(),
  /** The exact fix (a command to run or a setting to change); null when nothing needs fixing. */
  fix: z.string().nullable(),
});
export type DoctorCheck = z.infer<typeof DoctorCheck>;

export const HarnessHealth = z.object({
  name: z.string(),
  builtIn: z.boolean(),
  command: z.string(),
  /** The executable found on the agents' PATH, or null. */
  path: z.string().nullable(),
  installed: z.boolean(),
  version: z.string().nullable(),
  /** Variables (or files) that carry its credentials; `found` names the one present. */
  auth: z.object({ needs: z.array(z.string()), found: z.string().nullable() }),
  /** The permission or sandbox mode its lanes run in, in words. */
  mode: z.string(),
  /** Named by a role or review setting, or a profile in config.yaml. */
  used: z.boolean(),
});
export type HarnessHealth = z.infer<typeof HarnessHealth>;

export const DoctorReport = z.object({
  harnesses: z.array(HarnessHealth),
  checks: z.array(DoctorCheck),
  problems: z.number().int(),
});
export type DoctorReport = z.infer<typeof DoctorReport>;

/** Client → daemon. Runs every check (`harnesses`: only the harness checks, for pickers). */
export const doctorRun = request(
  'doctor/run',
  z.object({ only: z.enum(['harnesses']).optional() }).strict(),
  DoctorReport,
);
