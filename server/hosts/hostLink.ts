// What the daemon does on a host, over the shared SSH connection: get it ready (svc's
// bundles copied once per build, node required, the daemon's socket forwarded), and call
// svc's helper there (helper/hostOps.ts) with one JSON request per operation. The daemon
// never opens a path of the host itself: every path of a remote lane is only ever a
// string it sends over SSH.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SVC_BUILD } from '../../shared/version';
import type { GitFacts } from '../git/git';
import type { HostLaneFile, HostRequest } from './helper/hostOps';
import type { ReportFacts } from '../git/reportFacts';
import { HOST_NODE_MAJOR } from './hostCheck';
import {
  helperRefusal,
  hostCopyFailedError,
  hostFetchFailedError,
  hostNoNodeError,
  hostOpFailedError,
  hostProbeFailedError,
} from './hostRefusals';
import type { Hosts } from './hosts';
import { HOST_BASE, shq } from './remoteShell';
import type { SshHost } from './sshTransport';

/** The bundles a host needs: the shim (`svc` inside remote agents, in two parts), the script agent, the helper. */
const BUNDLES = ['svc.js', 'svcCommands.js', 'scriptAgent.js', 'svcHost.js'];
/**
 * Files beside the bundles that a harness's environment names by path (gemini's system
 * defaults, harness/geminiDefaults.ts): a path of this machine means nothing on a host, so
 * each is copied there (flat, by its base name) and onHost() names the copy.
 */
const HARNESS_FILES = [path.join('harness', 'gemini-system-defaults.json')];

export interface HostReady {
  /** The SSH user's home on the host. */
  home: string;
  /** <home>/.svc-host/<build>: the bundles and the `svc` wrapper. */
  buildDir: string;
  /** The daemon's socket as forwarded onto the host, alone in a folder of this daemon's (a sandboxed agent there is given that folder). */
  socket: string;
  /** <home>/.svc-host/agents/<daemon>: the run folders of this daemon's agents there (helper/relay.ts). */
  agentsDir: string;
}

export class HostLink {
  private readonly ready = new Map<string, { masterPid: number; r: HostReady }>();
  private readonly pending = new Map<string, Promise<HostReady>>();

  constructor(
    private readonly hosts: Hosts,
    private readonly distDir: string,
    private readonly localSocket: string,
    private readonly svcHome: string,
  ) {}

  host(name: string): SshHost {
    return this.hosts.get(name);
  }

  /** Connects (or reconnects), copies svc's bundles when this build is not there yet, forwards the socket. */
  async prepare(name: string): Promise<HostReady> {
    const had = this.ready.get(name);
    const host = this.host(name);
    if (had && had.masterPid === (await host.masterPid())) return had.r;
    let p = this.pending.get(name);
    if (!p) {
      p = this.connect(name).finally(() => this.pending.delete(name));
      this.pending.set(name, p);
    }
    return p;
  }

  private async connect(name: string): Promise<HostReady> {
    const host = this.host(name);
    const probe = await host.run(
      [
        `printf '%s\\n' "$HOME"`,
        `if command -v node >/dev/null 2>&1; then node --version; else echo none; fi`,
        `if [ -f "$HOME"/${HOST_BASE}/${SVC_BUILD}/ok ]; then echo have; else echo missing; fi`,
      ].join('; '),
    );
    const [home, node, have] = probe.stdout.split('\n');
    if (!home?.startsWith('/')) throw hostProbeFailedError(name, probe.stderr.trim() || probe.stdout.trim());
    const major = Number(/^v(\d+)/.exec(node ?? '')?.[1] ?? 0);
    if (major < HOST_NODE_MAJOR) {
      throw hostNoNodeError(name, node, HOST_NODE_MAJOR);
    }
    const buildDir = `${home}/${HOST_BASE}/${SVC_BUILD}`;
    if (have !== 'have') await this.copyBundles(host, buildDir);
    const daemonId = crypto.createHash('sha256').update(this.svcHome).digest('hex').slice(0, 12);
    const socket = `${home}/${HOST_BASE}/run/${daemonId}/daemon.sock`;
    const socketDir = path.posix.dirname(socket);
    await host.run(
      `umask 077 && mkdir -p ${shq(socketDir)} && chmod 700 "$HOME"/${HOST_BASE} ${shq(path.posix.dirname(socketDir))} ${shq(socketDir)} && rm -f ${shq(socket)}`,
    );
    await host.forward(socket, this.localSocket);
    const masterPid = await host.masterPid();
    const r = { home, buildDir, socket, agentsDir: `${home}/${HOST_BASE}/agents/${daemonId}` };
    if (masterPid !== null) this.ready.set(name, { masterPid, r });
    return r;
  }

  /** Once per build: into a temporary folder, then renamed, so a half copy is never used. */
  private async copyBundles(host: SshHost, buildDir: string): Promise<void> {
    const tmp = `${buildDir}.${process.pid}.tmp`;
    // svc's folders on the host are the user's alone (~/.svc-host holds parked work and sockets).
    await host.run(`umask 077 && rm -rf ${shq(tmp)} && mkdir -p ${shq(tmp)}`);
    for (const f of [...BUNDLES, ...HARNESS_FILES]) {
      const r = await host.run(`cat > ${shq(`${tmp}/${path.basename(f)}`)}`, {
        stdin: fs.readFileSync(path.join(this.distDir, f)),
      });
      if (r.code !== 0) throw hostCopyFailedError(`copying ${f} to ${host.spec.name}`, r.stderr);
    }
    const wrapper =
      '#!/bin/sh\n# svc on a host: the shim, talking to the daemon through the forwarded socket ($SVC_SOCKET).\nexec node "$(dirname "$0")/svc.js" "$@"\n';
    const r = await host.run(
      `cat > ${shq(`${tmp}/svc`)} && chmod 700 ${shq(`${tmp}/svc`)} && touch ${shq(`${tmp}/ok`)} && rm -rf ${shq(buildDir)} && mv ${shq(tmp)} ${shq(buildDir)}`,
      { stdin: wrapper },
    );
    if (r.code !== 0) throw hostCopyFailedError(`installing svc's shim on ${host.spec.name}`, r.stderr);
  }

  /**
   * A value of an agent's environment as it must read on the host: a path to one of svc's
   * harness files in this machine's build names the copy in the host's build folder;
   * anything else is passed as it is.
   */
  onHost(value: string, ready: HostReady): string {
    const f = HARNESS_FILES.find((h) => value === path.join(this.distDir, h));
    return f ? `${ready.buildDir}/${path.basename(f)}` : value;
  }

  /** One operation of svc's helper on the host. */
  async call<T>(name: string, req: HostRequest): Promise<T> {
    const ready = await this.prepare(name);
    const r = await this.host(name).run(`node ${shq(`${ready.buildDir}/svcHost.js`)}`, { stdin: JSON.stringify(req) });
    let answer: { ok: boolean; result?: T; error?: { kind: string; reason: string; message: string } };
    try {
      answer = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as typeof answer;
    } catch {
      throw hostOpFailedError(name, req.op, r.code, r.stderr);
    }
    if (!answer.ok) throw helperRefusal(answer.error);
    return answer.result as T;
  }

  async facts(name: string, dirs: string[]): Promise<Map<string, GitFacts>> {
    const r = await this.call<Record<string, GitFacts>>(name, { op: 'facts', dirs });
    return new Map(Object.entries(r));
  }

  reportFacts(name: string, dir: string): Promise<ReportFacts> {
    return this.call(name, { op: 'reportFacts', dir });
  }

  /** A file a lane on host `name` wrote or its agent named, read there as laneFileRead.ts reads one here. */
  readLaneFile(name: string, dir: string, file: string, maxBytes: number): Promise<HostLaneFile> {
    return this.call(name, { op: 'readLaneFile', dir, path: file, maxBytes });
  }

  /** The bytes of a file on the host (a parked patch coming home). */
  async fetch(name: string, file: string): Promise<Buffer> {
    const r = await this.host(name).run(`cat -- ${shq(file)}`);
    if (r.code !== 0) throw hostFetchFailedError(file, name, r.stderr);
    return r.raw;
  }
}

/** The bare clone of a project's origin on a host: one per origin URL (a project key may be reused). */
export function repoIdOf(project: string, origin: string): string {
  return `${project}-${crypto.createHash('sha256').update(origin).digest('hex').slice(0, 10)}`;
}
