// Entry of dist/gitRemoteSvc.js, run by bin/git-remote-svc: the git remote helper a local
// lane's `git push` goes through (its environment rewrites the push URL of each local remote
// to `svc::<url>`, server/conversations/agentEnv.ts). It lists the remote's refs by reading
// it (readable in the sandbox), and hands each push to the daemon over the lane's own
// connection (lanes/push): the daemon judges it by the lane ref policy and pushes from the
// project's repository. The remote itself is read-only to a sandboxed lane.
import { spawnSync } from 'node:child_process';
import * as readline from 'node:readline';
import { DaemonRefusal } from '../shared/client/daemonRefusal';
import { lanesPush } from '../shared/protocol/lanes';
import { connect } from './client';
import { listAnswer, parsePushLine, pushAnswer } from './remoteHelperProtocol';
import type { PushLine } from './remoteHelperProtocol';

const url = process.argv[3] ?? process.argv[2] ?? '';
const out = (t: string) => process.stdout.write(t);
const NOT_IN_A_LANE =
  'git-remote-svc pushes for a lane, and this is not one (no SVC_SOCKET or SVC_CONVERSATION); push to the remote itself';

function git(args: string[]): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, out: r.stdout ?? '', err: (r.stderr ?? '').trim() };
}

/** The commit `src` names here (null for a delete), or why it names none. */
function resolve(src: string): string | null | Error {
  if (src === '') return null;
  const r = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${src}^{commit}`]);
  return r.ok ? r.out.trim() : new Error(`${src} is not a commit here`);
}

async function push(batch: PushLine[]): Promise<string> {
  const updates: { sha: string | null; ref: string; force: boolean }[] = [];
  const local: { ref: string; ok: false; error: string }[] = [];
  for (const p of batch) {
    const sha = resolve(p.src);
    if (sha instanceof Error) local.push({ ref: p.dst, ok: false, error: sha.message });
    else updates.push({ sha, ref: p.dst, force: p.force });
  }
  if (updates.length === 0) return pushAnswer(local);
  // Only a lane's environment names this helper; outside one there is no lane to push as,
  // and no daemon is started for it.
  if (!process.env.SVC_SOCKET && !process.env.SVC_CONVERSATION)
    return pushAnswer([...local, ...updates.map((u) => ({ ref: u.ref, ok: false, error: NOT_IN_A_LANE }))]);
  try {
    const client = await connect(process.env);
    try {
      const r = await client.request(lanesPush, {
        caller: process.env.SVC_CONVERSATION || undefined,
        remote: url,
        updates,
      });
      return pushAnswer([...local, ...r.results]);
    } finally {
      client.close();
    }
  } catch (e) {
    // Refused whole (or no daemon): every ref carries the reason, so git says it per ref.
    const why = e instanceof DaemonRefusal ? e.message : `svc could not be asked: ${(e as Error).message}`;
    return pushAnswer([...local, ...updates.map((u) => ({ ref: u.ref, ok: false, error: why }))]);
  }
}

async function main(): Promise<void> {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  let batch: PushLine[] = [];
  for await (const line of lines) {
    if (line === 'capabilities') out('push\n\n');
    else if (line === 'list' || line === 'list for-push') {
      const r = git(['ls-remote', '--', url]);
      if (!r.ok) {
        process.stderr.write(`svc: cannot list ${url}: ${r.err}\n`);
        process.exit(1);
      }
      out(listAnswer(r.out));
    } else if (line.startsWith('push ')) {
      const p = parsePushLine(line);
      if (p) batch.push(p);
    } else if (line === '') {
      if (batch.length === 0) break;
      out(await push(batch));
      batch = [];
    } else {
      process.stderr.write(`svc: git-remote-svc does not speak "${line}"\n`);
      process.exit(1);
    }
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`svc: git-remote-svc failed: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
