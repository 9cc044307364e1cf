// `npm run demo`: svc's main job on its embedded defaults — the `script` harness and the
// local code host; no API keys, no GitHub, no internet. A sample project with a local
// bare origin, a scripted gauntlet run (builders, blind critics, a second iteration, the
// passing builders landed through the queue after the project's check, reap with --park),
// then a full review convoy on a local pull request, and a conversation that waits for
// your answer (needs-you). Safe to run twice: each run starts from a fresh demo home
// under .demo/ in the checkout.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { demoSandbox } from './demoSandbox';
import type { DemoSandbox } from './demoSandbox';
import { writeGauntlet } from './gauntletScript';
import { followRun } from './progress';
import { runNeedsYou } from './needsYou';
import { runReviewConvoy } from './reviewConvoy';
import { savedLines } from './savedLines';
import { makeSampleProject } from './sample';
import type { Landing } from '../../shared/protocol/land';

const REPO = path.resolve(__dirname, '..', '..');
const DEMO = path.join(REPO, '.demo');
// SVC_DEMO_HOME: another home for the demo's state (the e2e suite runs it into a scratch home).
const HOME = process.env.SVC_DEMO_HOME ? path.resolve(process.env.SVC_DEMO_HOME) : path.join(DEMO, 'home');
const SVC_HOME = path.join(HOME, '.svc');
const SVC_JS = path.join(REPO, 'dist', 'svc.js');

const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME,
  SVC_HOME,
  PATH: `${path.join(REPO, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  GIT_AUTHOR_NAME: 'svc demo',
  GIT_AUTHOR_EMAIL: 'demo@svc.invalid',
  GIT_COMMITTER_NAME: 'svc demo',
  GIT_COMMITTER_EMAIL: 'demo@svc.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};
delete env.SVC_CONVERSATION;

export function svc(args: string[], opts: { quiet?: boolean } = {}): string {
  const r = spawnSync(process.execPath, [SVC_JS, ...args], { env, cwd: HOME, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`\nsvc ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
    throw new Error(`svc ${args[0]} ${args[1] ?? ''} failed`);
  }
  if (!opts.quiet) process.stdout.write(r.stdout);
  return r.stdout;
}

const say = (line: string) => process.stdout.write(line + '\n');
const heading = (line: string) => say(`\n== ${line}`);

function freshHome(): void {
  // The old demo's agents go with its home: --force stops them with the daemon.
  if (fs.existsSync(SVC_HOME))
    spawnSync(process.execPath, [SVC_JS, 'daemon', 'stop', '--force'], { env, cwd: HOME, stdio: 'ignore' });
  fs.rmSync(process.env.SVC_DEMO_HOME ? HOME : DEMO, { recursive: true, force: true });
  fs.mkdirSync(HOME, { recursive: true });
}

async function gauntlet(): Promise<void> {
  heading('A gauntlet run: two builders, blind critics, a second iteration, land, reap');
  const prompt = writeGauntlet(HOME);
  // Finished once the superseded iteration and the docs builder are reaped; greet i2 and its critic stay, so the deck shows the nesting.
  const reaped = ['demo-greet-critic-i1', 'demo-greet-builder-i1', 'demo-docs-builder-i1'];
  const progress = await followRun(
    path.join(SVC_HOME, 'server.json'),
    'demo',
    say,
    (lanes) => lanes.length === 6 && reaped.every((n) => lanes.find((l) => l.name === n)?.reaped),
  );
  // A lane that fails to start stops the demo at once, with its spawn error.
  progress.failed.then(
    (lane) => {
      say(`\n${lane.name} failed to start: ${lane.spawnError ?? 'no spawn error recorded'}`);
      process.exit(1);
    },
    () => undefined,
  );
  const created = JSON.parse(
    svc(
      [
        'conv',
        'new',
        '--project',
        'sample',
        '--harness',
        'script',
        '--model',
        'script-fast',
        '--cwd',
        HOME,
        '--title',
        'demo orchestrator',
        '--prompt',
        prompt,
        '--json',
      ],
      {
        quiet: true,
      },
    ),
  ) as { conversation: { id: number; name: string } };
  say(
    `  orchestrator: conversation #${created.conversation.id} (${created.conversation.name}) runs the svc-gauntlet-loop skill`,
  );
  const timer = setTimeout(() => {
    say('\nThe run did not finish within 3 minutes. The orchestrator says:');
    svc(['conv', 'log', String(created.conversation.id), '--lines', '40']);
    process.exit(1);
  }, 180_000);
  await progress.finished;
  clearTimeout(timer);
  progress.close();
  const queued = await completeFile(path.join(HOME, 'land-docs.txt'));
  const greet = JSON.parse(await completeFile(path.join(HOME, 'land-greet.json'))) as Landing;
  say(`\n  ${queued.trim()}`);
  say(`  ${landedLine(greet)}`);
  say('\n  The docs builder left an uncommitted note; reap --park saved it:');
  const saved = await completeFile(path.join(HOME, 'reap-docs.txt'));
  for (const line of savedLines(saved)) say(`    ${line}`);
}

/** `landed i2 → main (…)`: the greet builder's landing, which the orchestrator waited for. */
function landedLine(l: Landing): string {
  if (l.state !== 'landed') throw new Error(`the landing of ${l.lane} ended ${l.state}: ${l.message ?? ''}`);
  const checks = l.checks.map(
    (c) => `${c.name} ${c.ok ? 'passed' : 'failed'} in ${(c.durationMs / 1000).toFixed(1)} s`,
  );
  const iteration = /-i(\d+)$/.exec(l.lane)?.[1] ?? '?';
  return `landed i${iteration} → ${l.base} (${l.key}, ${l.method} ${(l.baseSha ?? '').slice(0, 7)}..${(l.landedSha ?? '').slice(0, 7)}; check ${checks.join(', ')})`;
}

/**
 * The orchestrator's reap output, once complete: the lane shows reaped before the `svc lane
 * reap` process has written its output, so the orchestrator renames the file into place
 * when done and this waits for it.
 */
async function completeFile(file: string): Promise<string> {
  for (let i = 0; i < 300 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  if (!fs.existsSync(file)) throw new Error(`${file} was not written within 30 s`);
  return fs.readFileSync(file, 'utf8');
}

/**
 * The sample project's landing checks (gauntlet.checks): one quick one, so the demo's
 * landings are tested as any project's are. Appended to the entry `svc project add` wrote.
 */
function addChecks(): void {
  fs.appendFileSync(
    path.join(SVC_HOME, 'projects.yaml'),
    "    gauntlet:\n      checks:\n        - name: syntax\n          run: 'sh -n greet.sh'\n          timeout: 30\n",
  );
}

/** Without a working sandbox the `script` harness's lanes run off (config.yaml, rewritten by the review half). */
function writeSandboxConfig(sandbox: DemoSandbox): void {
  if (sandbox.mode !== 'off') return;
  fs.mkdirSync(SVC_HOME, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(SVC_HOME, 'config.yaml'), 'harnesses:\n  script:\n    sandbox: off\n', { mode: 0o600 });
}

async function main(): Promise<void> {
  say('svc demo — the script harness and the local code host; no API keys, no network.');
  freshHome();
  const sandbox = await demoSandbox(env);
  writeSandboxConfig(sandbox);
  const project = makeSampleProject(HOME, env);
  say(`  home     ${HOME} (SVC_HOME=${SVC_HOME})`);
  say(`  project  sample: ${project}, origin ${path.join(HOME, 'sample-origin.git')}`);
  if (sandbox.mode === 'off') say(`  ${sandbox.line}`);
  const status = JSON.parse(svc(['daemon', 'status', '--json'], { quiet: true })) as { pid: number; httpPort: number };
  say(`  daemon   pid ${status.pid}, http://127.0.0.1:${status.httpPort}`);
  svc(['project', 'add', 'sample', project], { quiet: true });
  addChecks();

  await gauntlet();
  const io = { svc, say, heading, home: HOME, svcHome: SVC_HOME, sandboxOff: sandbox.mode === 'off' };
  const issue = await runReviewConvoy(io);
  const asking = await runNeedsYou(io);

  heading('svc lane list --run demo');
  svc(['lane', 'list', '--run', 'demo']);
  // The demo's lanes run in the default sandbox wherever it can start: say so, and fail if one did not.
  const modes = (
    JSON.parse(svc(['lane', 'list', '--run', 'demo', '--json'], { quiet: true })) as { name: string; sandbox: string }[]
  ).map((l) => `${l.name} ${l.sandbox}`);
  const unconfined = modes.filter((m) => !m.endsWith(' workspace'));
  if (sandbox.mode === 'workspace' && unconfined.length)
    throw new Error(`lanes ran outside the sandbox: ${unconfined.join(', ')}`);
  say(
    sandbox.mode === 'workspace'
      ? `  every lane ran sandboxed (workspace): ${modes.length} lanes`
      : sandbox.mode === 'off'
        ? `  ${modes.length} lanes ran unconfined (the sandbox could not start here; see above)`
        : `  ${modes.length} lanes ran unconfined (svc has no sandbox on ${process.platform})`,
  );
  heading('svc lane show --run demo --key greet');
  svc(['lane', 'show', '--run', 'demo', '--key', 'greet']);
  heading(`svc show ${issue}`);
  svc(['show', issue]);
  heading('svc run export demo');
  svc(['run', 'export', 'demo', '--out', path.join(HOME, 'svc-run-sample-demo.html')]);
  // Last: what still waits on the person, the needs-you question left open above among it.
  heading('svc inbox');
  svc(['inbox']);
  const waiting = JSON.parse(svc(['inbox', '--json'], { quiet: true })) as { items: { id: string }[] };
  if (!waiting.items.some((i) => i.id === `ask-${asking}`))
    throw new Error(`svc inbox does not show the open question of #${asking}`);

  say(
    `\nDone. The daemon keeps running for this demo home; look around with:\n  SVC_HOME=${SVC_HOME} npx svc lane list\n  npm run demo:ui   (the same state in a real VS Code)\n  the run record: ${path.join(HOME, 'svc-run-sample-demo.html')} (open it in a browser)\nStop it (and the demo's live agents) with: SVC_HOME=${SVC_HOME} npx svc daemon stop --force`,
  );
}

main().catch((e) => {
  process.stderr.write(`\ndemo failed: ${(e as Error).message}\n`);
  process.exit(1);
});
