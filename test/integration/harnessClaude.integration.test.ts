// The `claude` profile's wiring, proven with a fake `claude-agent-acp` on PATH (the
// script agent under that name): spawn, initialize, session/new, model and effort
// through session/set_config_option, the agent's environment; and with it absent, the
// spawn error with its fix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BIN_DIR } from '../helpers/scratch';
import { convScratch, script, SCRIPT_AGENT } from './convSupport';
import type { ConvScratch } from './convSupport';

describe('harness profile claude through a fake claude-agent-acp', function () {
  this.timeout(60_000);
  let s: ConvScratch;
  let fake: string;

  before(async () => {
    const fakeBin = path.join(process.cwd(), '.scratch', `fake-claude-${process.pid}-${Date.now().toString(36)}`);
    fs.mkdirSync(fakeBin, { recursive: true });
    fake = path.join(fakeBin, 'claude-agent-acp');
    fs.writeFileSync(fake, `#!/bin/sh\nexec "${process.execPath}" "${SCRIPT_AGENT}" "$@"\n`, { mode: 0o755 });
    s = await convScratch('harness-claude', {
      env: { PATH: `${BIN_DIR}${path.delimiter}${fakeBin}${path.delimiter}${process.env.PATH}` },
    });
  });
  after(async () => {
    await s?.dispose();
    fs.rmSync(path.dirname(fake), { recursive: true, force: true });
  });

  it('starts, sets model and effort by config option category, and gives the agent its svc context', async () => {
    const prompt = script(
      '- run: echo "model=$SCRIPT_MODEL effort=$SCRIPT_EFFORT conv=$SVC_CONVERSATION home=$SVC_HOME svc=$(command -v svc)"',
    );
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'claude',
      '--model',
      'opus',
      '--effort',
      'high',
      '--title',
      'fake claude',
      '--prompt',
      prompt,
    ]);
    const id = Number(/^Conversation #(\d+) \(fake-claude\) in /.exec(out)?.[1]);
    const info = await s.waitActivity(id, 'idle');
    assert.deepEqual([info.harness, info.model, info.effort, info.alive], ['claude', 'opus', 'high', true]);
    const log = await s.log(id);
    assert.match(
      log,
      new RegExp(`\\nmodel=opus effort=high conv=${id} home=${s.svcHome} svc=${path.join(BIN_DIR, 'svc')}\\n`),
    );
    assert.match(log, /\[svc\] claude agent started \(model opus, effort high\)\n/);
  });

  it('with the binary absent, failed-to-start with the cause and the fix', async () => {
    fs.rmSync(fake);
    const r = await s.svc([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'claude',
      '--model',
      'opus',
      '--title',
      'gone claude',
      '--prompt',
      'hi',
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^Conversation #\d+ \(gone-claude\) in /);
    assert.equal(
      r.stderr,
      "harness 'claude': command 'claude-agent-acp' not found on PATH; install @agentclientprotocol/claude-agent-acp or set harnesses.claude.command in ~/.svc/config.yaml\n",
    );
    assert.equal((await s.show('gone-claude')).activity, 'failed-to-start');
  });
});
