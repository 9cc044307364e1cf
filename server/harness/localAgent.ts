// An agent on this machine: a child of the daemon in its own process group (agentProcess.ts),
// started in the conversation's folder, inside the lane's sandbox when it has one. Its stop
// door signals the group here: SIGTERM after the EOF had its moment, SIGKILL only when asked.
import * as fs from 'node:fs';
import { describeExit } from '../util/processExit';
import type { ExitInfo } from '../util/processExit';
import { groupMembers, procCommand } from '../util/processGroup';
import { AgentProcess, findCommand } from './agentProcess';
import type { AgentLauncher, AgentTransport, StopDoor } from './agentTransport';
import { PipedAgent } from './pipedAgent';
import * as errs from './spawnErrors';

export const localAgent: AgentLauncher = {
  async check(io) {
    const { profile, cwd, env, sandbox, configFileShown: cfg } = io;
    if (!isDir(cwd)) throw errs.missingCwd(profile, cwd);
    const command = findCommand(profile.command, env.PATH, cwd);
    if (!command) throw errs.commandNotFound(profile, cfg);
    let spawned = { command, args: profile.args };
    if (sandbox) {
      const wrapped = await sandbox(command, profile.args);
      if (!wrapped.ok) throw errs.sandboxUnavailable(profile, wrapped.reason, wrapped.fix);
      spawned = wrapped;
    }
    return () =>
      Promise.resolve(
        new LocalAgent(new AgentProcess(spawned.command, spawned.args, { cwd, env, logFile: io.logFile })),
      );
  },
};

class LocalAgent extends PipedAgent<AgentProcess> implements AgentTransport {
  onExit(fn: () => void): void {
    this.proc.child.once('exit', fn);
  }

  describeEnd(exit: ExitInfo): string {
    return describeExit(exit);
  }

  earlyExitReason(): undefined {
    return undefined;
  }

  async stop(door: StopDoor): Promise<{ stopped: boolean }> {
    const proc = this.proc;
    await door.waitFor(() => proc.exited, Math.min(2000, Math.max(0, door.deadline - Date.now())));
    // A group left with zombies only takes the signal as a no-op: asking kill(-pgid, 0) spares
    // a read of every process before the wait below does one.
    if (!proc.exited || proc.groupExists()) {
      proc.signalGroup('SIGTERM');
      await door.waitFor(() => proc.exited && !proc.groupAlive(), Math.max(0, door.deadline - Date.now()));
    }
    if ((!proc.exited || proc.groupAlive()) && door.kill) {
      proc.signalGroup('SIGKILL');
      await door.waitFor(() => proc.exited && !proc.groupAlive(), 5000);
    }
    // The session ends on the pipes' close, just after `exit`: whoever stopped it reads it ended (`--replace`).
    if (proc.exited) await door.sessionEnded();
    return { stopped: proc.exited && !proc.groupAlive() };
  }

  groupPids(): number[] {
    const pid = this.proc.pid;
    return pid === undefined ? [] : groupMembers(pid);
  }

  processes(): Promise<{ pid: number; command: string }[]> {
    return Promise.resolve(
      this.groupPids()
        .sort((a, b) => a - b)
        .map((pid) => ({ pid, command: procCommand(pid) ?? '(gone)' })),
    );
  }

  hostLost(): null {
    return null;
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
