// svc's helper on a host (dist/svcHost.js, copied there once per build beside the shim).
// Not a resident agent: ssh runs it once per operation with one JSON request on stdin and
// it answers one JSON line on stdout, then exits. Its other modes hold an agent's stdio
// (relay.ts, attach.ts): `launch`, `attach`, and `relay`, which lives as long as the agent.
// Every operation is the same code the daemon runs for a local lane (worktree creation, git
// facts, the reap sequence with its process check and verified park), so a lane on a host
// keeps the same guarantees. Its code is server/hosts/helper/; this entry point lives here,
// beside the daemon's main.ts, because it hands that code lanes' folder making (lanes/workdir.ts):
// hosts sits below lanes and must not import it.
import { attachMain, launchMain } from './hosts/helper/attach';
import { hostOp } from './hosts/helper/hostOps';
import { relayMain } from './hosts/helper/relay';
import type { HostRequest } from './hosts/helper/hostOps';
import { createPlayDir, createWorktree } from './lanes/workdir';

function answer(a: unknown): void {
  process.stdout.write(JSON.stringify(a) + '\n');
}

async function main(): Promise<void> {
  // A failure outside the operation's own promise (an 'error' event) is still one answer, with where it happened.
  process.on('uncaughtException', (e) => {
    answer({
      ok: false,
      error: {
        kind: 'internal',
        reason: 'hostOpFailed',
        message: `svc's helper on the host failed: ${(e.stack ?? String(e)).split('\n').slice(0, 4).join(' / ')}`,
      },
    });
    process.exit(1);
  });
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  try {
    const req = JSON.parse(Buffer.concat(chunks).toString('utf8')) as HostRequest;
    answer({ ok: true, result: await hostOp(req, { createWorktree, createPlayDir }) });
  } catch (e) {
    const err = e as { kind?: string; reason?: string; message?: string };
    answer({
      ok: false,
      error: { kind: err.kind ?? 'internal', reason: err.reason ?? 'hostOpFailed', message: err.message ?? String(e) },
    });
  }
}

const [mode, runDir, cwd, sep, ...argv] = process.argv.slice(2);
if (mode === 'relay' && sep === '--') relayMain(runDir, cwd, argv);
else if (mode === 'launch' && sep === '--') void launchMain(runDir, cwd, argv);
else if (mode === 'attach') void attachMain(runDir);
else void main();
