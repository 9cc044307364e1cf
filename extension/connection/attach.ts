// Attaching to a daemon someone else started, without ever starting one: what the
// reconnect loop does. Starting (and replacing a daemon of another build) is
// ensureDaemon's job and happens only on activation or when the person asks.
import * as fs from 'node:fs';
import type * as net from 'node:net';
import { tryConnect } from '../../shared/client/ensureDaemon';
import { checkHomeFolder, readDiscovery } from '../../shared/discovery';
import type { Discovery } from '../../shared/discovery';
import { homePaths } from '../../shared/svcHome';

export type AttachResult = { socket: net.Socket; discovery: Discovery } | { why: string };

export async function attachExisting(home: string, build: string): Promise<AttachResult> {
  if (!fs.existsSync(home)) return { why: `no daemon is running for ${home}` };
  let d: Discovery | undefined;
  try {
    checkHomeFolder(home);
    d = readDiscovery(homePaths(home).discovery);
  } catch (e) {
    return { why: (e as Error).message };
  }
  if (!d) return { why: `no daemon is running for ${home}` };
  const socket = await tryConnect(d.socketPath, 2000);
  if (!socket) return { why: `the daemon (pid ${d.pid}) does not answer on ${d.socketPath}` };
  if (d.build !== build) {
    socket.destroy();
    // Replacing it here could make two windows of different builds replace each other
    // forever; only an explicit start replaces it.
    return {
      why: `a daemon of another build (${d.version}, build ${d.build}) is running and this window is build ${build}; run "svc: Start Daemon" to replace it`,
    };
  }
  return { socket, discovery: d };
}
