// What the parts of the remote gauntlet suite (lanesRemote.integration.test.ts) share: its
// world (sshd on 127.0.0.1 whose user's home is "the other machine", the daemon under
// strace) and the ways it looks at the lanes here and at processes and files on the host.
import * as crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { ok } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import type { RemoteLaneWorld } from '../helpers/remoteLaneWorld';
import type { Scratch } from '../helpers/scratch';
import { controlDirOf } from '../helpers/sshd';
import type { Sshd } from '../helpers/sshd';

export interface RemoteSuite {
  s: Scratch;
  d: Sshd;
  w: LaneWorld;
  /** The lanes root on the host. */
  root: string;
  /** The daemon's strace output. */
  traceLog: string;
  /** Run r1's lanes, as `svc lane list --json` gives them. */
  lanes: () => Promise<LaneRecord[]>;
  lane: (name: string) => Promise<LaneRecord>;
  conv: (name: string) => Promise<ConversationInfo>;
  /** Runs a shell script on the host as its user; its output, trimmed. */
  onHost: (script: string) => string;
  /** The SSH destination as a regular expression. */
  dest: () => string;
  /** The printed restore's ssh command with the host entry's options (this sshd listens on its own port), as a regular expression. */
  sshRe: () => string;
  /** This daemon's run folders of agents on the host (~/.svc-host/agents/<daemon id>, relative to the remote home). */
  agentsDir: () => string;
  /** Pids of the processes on the host whose working directory is `dir` (the agent and what it runs). */
  pidsIn: (dir: string) => number[];
  /** The script agent's pid among them (not the bubblewrap processes of its sandbox, whose command lines name it too). */
  agentIn: (dir: string) => number[];
  /** The shared connection's master, killed outright (no goodbye) as a dropped network would, while sshd listens no more. */
  dropConnection: () => Promise<void>;
}

export function remoteSuite(world: RemoteLaneWorld, traceLog: string): RemoteSuite {
  const { s, d, w, root } = world;
  const t: RemoteSuite = {
    s,
    d,
    w,
    root,
    traceLog,
    lanes: async () => JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'r1', '--json']))).stdout) as LaneRecord[],
    lane: async (name) => (await t.lanes()).find((l) => l.name === name)!,
    conv: async (name) => JSON.parse((await ok(s.svc(['conv', 'show', name, '--json']))).stdout) as ConversationInfo,
    onHost: (script) => d.asRemote(script).trim(),
    dest: () => d.destination.replace(/[.]/g, '\\.'),
    sshRe: () =>
      ['ssh', ...d.options.flatMap((o) => ['-o', o]), d.destination].join(' ').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
    agentsDir: () => `.svc-host/agents/${crypto.createHash('sha256').update(s.svcHome).digest('hex').slice(0, 12)}`,
    pidsIn: (dir) =>
      t
        .onHost(
          `for p in /proc/[0-9]*; do [ "$(readlink $p/cwd 2>/dev/null)" = ${dir} ] && echo \${p#/proc/}; done; true`,
        )
        .split('\n')
        .filter(Boolean)
        .map(Number)
        .sort((a, b) => a - b),
    agentIn: (dir) =>
      t.pidsIn(dir).filter((p) => {
        const cmd = t.onHost(`tr '\\0' ' ' < /proc/${p}/cmdline 2>/dev/null || true`);
        return cmd.includes('scriptAgent.js') && !/^\S*bwrap /.test(cmd);
      }),
    dropConnection: async () => {
      const controlDir = controlDirOf(s.svcHome);
      const [control] = fs.readdirSync(controlDir);
      const check = spawnSync('ssh', ['-O', 'check', '-o', `ControlPath=${path.join(controlDir, control)}`, 'x'], {
        encoding: 'utf8',
      });
      const masterPid = Number(/pid=(\d+)/.exec(check.stderr)![1]);
      await d.pause();
      process.kill(masterPid, 'SIGKILL');
    },
  };
  return t;
}
