// Spawn errors from the protocol steps, with fake adapters on PATH (the script agent
// under their names): codex's `authenticate api-key` failing without a key, a model the
// agent refuses, and `-32000 Authentication required` on the first prompt (Claude
// without a key). Each reads failed-to-start with the cause and the fix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BIN_DIR } from '../helpers/scratch';
import { convScratch, SCRIPT_AGENT } from './convSupport';
import type { ConvScratch } from './convSupport';

describe('harness spawn errors from initialize, authenticate, models and the first prompt', function () {
  this.timeout(60_000);
  let s: ConvScratch;
  let fakeBin: string;

  const fake = (name: string, env: Record<string, string>) => {
    const vars = Object.entries(env)
      .map(([k, v]) => `${k}='${v}' `)
      .join('');
    fs.writeFileSync(
      path.join(fakeBin, name),
      `#!/bin/sh\n${vars}exec "${process.execPath}" "${SCRIPT_AGENT}" "$@"\n`,
      { mode: 0o755 },
    );
  };

  before(async () => {
    fakeBin = path.join(process.cwd(), '.scratch', `fake-adapters-${process.pid}-${Date.now().toString(36)}`);
    fs.mkdirSync(fakeBin, { recursive: true });
    fake('codex-acp', { SVC_SCRIPT_AUTH: 'api-key', SVC_SCRIPT_MODELS: 'gpt-5,gpt-5-mini' });
    fake('claude-agent-acp', { SVC_SCRIPT_PROMPT_AUTH_ERROR: '1' });
    fake('gemini', { SVC_SCRIPT_LEGACY_MODEL: '1' });
    s = await convScratch('harness-auth', {
      env: { PATH: `${BIN_DIR}${path.delimiter}${fakeBin}${path.delimiter}${process.env.PATH}` },
    });
  });
  after(async () => {
    await s?.dispose();
    fs.rmSync(fakeBin, { recursive: true, force: true });
  });

  const newConv = (harness: string, model: string, title: string) =>
    s.svc([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      harness,
      '--model',
      model,
      '--title',
      title,
      '--prompt',
      'hi',
    ]);

  it('codex without a key: authenticate fails, naming the key variables', async () => {
    const r = await newConv('codex', 'gpt-5', 'codex no key');
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "harness 'codex': authenticate (api-key) failed: Authentication required: SVC_SCRIPT_KEY is not set (-32000); set CODEX_API_KEY or OPENAI_API_KEY in the environment svc runs in or under harnesses.codex.env in ~/.svc/config.yaml\n",
    );
    assert.equal((await s.show('codex-no-key')).activity, 'failed-to-start');
  });

  it('with the key in harnesses.codex.env it starts; a model the agent refuses is a spawn error listing the models', async () => {
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), "harnesses:\n  codex:\n    env: {SVC_SCRIPT_KEY: 'k'}\n");
    const ok = await newConv('codex', 'gpt-5-mini', 'codex ok');
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((await s.waitActivity('codex-ok', 'idle')).model, 'gpt-5-mini');
    const bad = await newConv('codex', 'gpt-0', 'codex bad model');
    assert.equal(bad.code, 1);
    assert.equal(
      bad.stderr,
      "harness 'codex': model 'gpt-0' refused: Invalid params: unknown model 'gpt-0'; available: gpt-5, gpt-5-mini\n",
    );
  });

  it('gemini: the model through legacy session/set_model; effort not offered is a notice', async () => {
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'gemini',
      '--model',
      'gemini-2.5-pro',
      '--effort',
      'high',
      '--title',
      'gem',
      '--prompt',
      '```svc-script\n- run: echo "model=$SCRIPT_MODEL"\n```',
    ]);
    assert.match(out, /^Conversation #\d+ \(gem\) in /);
    await s.waitActivity('gem', 'idle');
    const log = await s.log('gem');
    assert.match(log, /\[svc\] harness 'gemini' offers no effort option over ACP; effort 'high' was not applied\n/);
    assert.match(log, /\nmodel=gemini-2\.5-pro\n/);
  });

  it('claude without a key: -32000 on the first prompt is a spawn error', async () => {
    const r = await newConv('claude', 'opus', 'claude no key');
    const message =
      "harness 'claude': authentication required on the first prompt: Authentication required; set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN in the environment svc runs in or under harnesses.claude.env in ~/.svc/config.yaml";
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `${message}\n`);
    const info = await s.show('claude-no-key');
    assert.deepEqual([info.activity, info.alive, info.spawnError], ['failed-to-start', false, message]);
  });
});
