// svc daemon status|stop|restart|log
import { existsSync, readFileSync } from 'node:fs';
import { checkHomeFolder, readDiscovery } from '../../shared/discovery';
import { tryConnect, waitForExit } from '../../shared/client/ensureDaemon';
import { daemonStatus } from '../../shared/protocol/daemon';
import { homePaths, svcHomeFrom } from '../../shared/svcHome';
import { bool, int, JSON_FLAG, jsonText } from '../cli';
import type { CliIo, CommandSpec } from '../cli';
import { askToStop } from '../../shared/client/daemonRefusal';
import { askLiveAgents, connect } from '../client';
import { liveAgentsRefusal } from '../shimRefusals';
import type { DaemonInfo } from '../../shared/protocol/daemon';

function describe(i: DaemonInfo, started: boolean): string {
  return (
    [
      `svc daemon ${started ? 'started' : 'running'}: pid ${i.pid}, version ${i.version} (build ${i.build})`,
      `  home    ${i.svcHome}`,
      `  socket  ${i.socketPath}`,
      `  http    http://127.0.0.1:${i.httpPort}`,
      `  uptime  ${Math.round(i.uptimeMs / 1000)} s`,
      `  agents  ${i.conversations} conversations, ${i.live} live`,
    ].join('\n') + '\n'
  );
}

/** Stops the daemon of this SVC_HOME if one runs; its pid when one was stopped. Talks to
 *  it directly, whatever its build: stopping must neither start nor replace a daemon, and
 *  a discovery file whose socket does not answer is stale (its daemon died). Without
 *  `force` it refuses while agents are live: a stop ends them. */
async function stopRunning(io: CliIo, verb: 'stop' | 'restart', force: boolean): Promise<number | undefined> {
  // An agent that reaches the daemon through a socket of its own ($SVC_SOCKET: a sandboxed
  // lane, or a lane on a host) sees no discovery file: it asks over that socket, and the
  // daemon judges who is asking. Its pid is not known there (0).
  if (io.env.SVC_SOCKET) {
    const socket = await tryConnect(io.env.SVC_SOCKET, 2000);
    if (!socket) return undefined;
    await askToStop(socket, `svc daemon ${verb}`, io.env);
    return 0;
  }
  const paths = homePaths(svcHomeFrom(io.env));
  if (!existsSync(paths.home)) return undefined;
  checkHomeFolder(paths.home);
  const d = readDiscovery(paths.discovery);
  if (!d) return undefined;
  if (!force) {
    const probe = await tryConnect(d.socketPath, 2000);
    if (!probe) return undefined;
    const live = await askLiveAgents(probe);
    if (live > 0) throw liveAgentsRefusal(live, verb);
  }
  const socket = await tryConnect(d.socketPath, 2000);
  if (!socket) return undefined;
  await askToStop(socket, `svc daemon ${verb}`, io.env);
  await waitForExit(d.pid, 60_000);
  return d.pid;
}

const FORCE_FLAG = {
  force: {
    type: 'boolean' as const,
    help: 'stop live agents too (without it, a daemon with live agents is not stopped)',
  },
};

export const daemonCommands: CommandSpec[] = [
  {
    path: ['daemon', 'status'],
    summary: 'show the daemon of this SVC_HOME, starting it if it is not running',
    usage: ['[--json]'],
    flags: { ...JSON_FLAG },
    async run(a, io) {
      const client = await connect(io.env);
      const info = await client.request(daemonStatus, {});
      client.close();
      io.out(bool(a, 'json') ? jsonText({ ...info, started: client.started }) : describe(info, client.started));
      return 0;
    },
  },
  {
    path: ['daemon', 'stop'],
    summary:
      'stop the daemon; refused while agents are live unless --force (which stops them through the stop door first)',
    usage: ['[--force]'],
    flags: { ...FORCE_FLAG },
    async run(a, io) {
      const pid = await stopRunning(io, 'stop', bool(a, 'force'));
      io.out(pid === undefined ? 'svc daemon is not running\n' : `svc daemon stopped${pid ? ` (pid ${pid})` : ''}\n`);
      return 0;
    },
  },
  {
    path: ['daemon', 'restart'],
    summary: 'stop the daemon if it runs, then start a new one; refused while agents are live unless --force',
    usage: ['[--force]'],
    flags: { ...FORCE_FLAG },
    async run(a, io) {
      await stopRunning(io, 'restart', bool(a, 'force'));
      const client = await connect(io.env, { explicitStart: true });
      const info = await client.request(daemonStatus, {});
      client.close();
      io.out(describe(info, true));
      return 0;
    },
  },
  {
    path: ['daemon', 'log'],
    summary: 'print the end of the daemon log (SVC_HOME/logs/daemon.log)',
    usage: ['[--lines <n>]'],
    flags: { lines: { type: 'int', help: 'how many lines from the end (default 50)', value: '<n>' } },
    async run(a, io) {
      const file = homePaths(svcHomeFrom(io.env)).daemonLog;
      if (!existsSync(file)) {
        io.err(`no daemon log yet at ${file}\n`);
        return 1;
      }
      const n = int(a, 'lines') ?? 50;
      const lines = readFileSync(file, 'utf8').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      io.out(lines.slice(-Math.max(0, n)).join('\n') + '\n');
      return 0;
    },
  },
];
