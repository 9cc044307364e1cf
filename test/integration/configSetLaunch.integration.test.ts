// What config settings do: a builder launched without --model takes the model (and
// effort) set with `svc config set`, and the model probe asks a real ACP agent (the
// script harness) for its model choices, caches them, and reports harnesses that cannot tell.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ModelChoices } from '../../shared/protocol/config';
import { laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, makeScratch, REPO } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

/** Processes whose working folder is inside `dir` (Linux /proc). */
function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${e}/cwd`);
      if (cwd === dir || cwd.startsWith(dir + path.sep)) out.push(Number(e));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

describe('config: settings in use (lane launch, model probe)', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('config-launch');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('launches a builder without --model on the model and effort set by svc config set', async () => {
    // Written in the lane's own directory: the only folder a (sandboxed) lane can write.
    const brief = writeBrief(w.briefs, 'model.md', [
      { run: `printf '%s %s' "$SCRIPT_MODEL" "$SCRIPT_EFFORT" > seen-model.txt` },
    ]);
    const refused = await tryStartLane(w, { run: 'cfg', key: 'b', role: 'builder', brief });
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      "no model for the builder role: pass --model <m> or set gauntlet.roles.builder.model for project 'proj' in projects.yaml (there is no default model)\n",
    );

    await ok(s.svc(['config', 'set', 'projects.proj.gauntlet.roles.builder.model', 'script-fast']));
    await ok(s.svc(['config', 'set', 'projects.proj.gauntlet.roles.builder.effort', 'high']));
    const lane = await startLane(w, { run: 'cfg', key: 'b', role: 'builder', brief });
    assert.equal(lane.model, 'script-fast');
    assert.equal(lane.effort, 'high');
    const seen = path.join(lane.cwd, 'seen-model.txt');
    assert.equal(
      await eventually(
        () => fs.existsSync(seen) && fs.readFileSync(seen, 'utf8'),
        30_000,
        'the agent to report its model',
      ),
      'script-fast high',
    );
    // A flag still wins over the configured default.
    const flagged = await startLane(w, {
      run: 'cfg2',
      key: 'b',
      role: 'builder',
      model: 'script-thorough',
      prompt: 'hi',
    });
    assert.equal(flagged.model, 'script-thorough');
  });

  it('lists the models the script harness offers, then answers from the cache', async () => {
    const first = JSON.parse(
      (await ok(s.svc(['config', 'models', 'script', '--refresh', '--json']))).stdout,
    ) as ModelChoices;
    assert.deepEqual(first, { models: ['script', 'script-fast', 'script-thorough'], source: 'probe' });
    // The probe's agent is gone by the time the answer arrives.
    assert.deepEqual(processesIn(path.join(s.svcHome, 'probes')), []);
    const again = JSON.parse((await ok(s.svc(['config', 'models', 'script', '--json']))).stdout) as ModelChoices;
    assert.deepEqual(again, { models: ['script', 'script-fast', 'script-thorough'], source: 'cache' });
    const text = await ok(s.svc(['config', 'models', 'script']));
    assert.equal(text.stdout, 'script\nscript-fast\nscript-thorough\n');
  });

  it('says why when a harness cannot tell, and refuses an unknown harness', async () => {
    const agent = path.join(REPO, 'dist', 'scriptAgent.js');
    fs.appendFileSync(
      path.join(s.svcHome, 'config.yaml'),
      [
        'harnesses:',
        '  missing:',
        `    command: ${path.join(s.home, 'no-such-agent')}`,
        '  dies:',
        `    command: ${process.execPath}`,
        `    args: [${JSON.stringify(agent)}]`,
        '    env: { SVC_SCRIPT_EXIT_BEFORE: session/new }',
        '',
      ].join('\n'),
    );
    const missing = await s.svc(['config', 'models', 'missing']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, `harness 'missing': command '${path.join(s.home, 'no-such-agent')}' not found\n`);
    const dies = JSON.parse((await ok(s.svc(['config', 'models', 'dies', '--json']))).stdout) as ModelChoices;
    assert.deepEqual(dies, {
      models: [],
      source: 'unavailable',
      reason:
        "harness 'dies': the agent exited (exit 3): script agent: exiting before answering session/new (SVC_SCRIPT_EXIT_BEFORE)",
    });
    const unknown = await s.svc(['config', 'models', 'nosuch']);
    assert.equal(unknown.code, 1);
    assert.equal(
      unknown.stderr,
      "unknown harness 'nosuch' (built in: claude, codex, gemini, script; configured: missing, dies; add one under harnesses: in ~/.svc/config.yaml)\n",
    );
  });
});
