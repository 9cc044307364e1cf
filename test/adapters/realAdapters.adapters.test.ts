// The real-adapter tier: the pinned claude-agent-acp, codex-acp and gemini CLI (installed
// into .adapters/ by scripts/installAdapters.sh) driven by the real daemon and shim against
// the mock model server. The only settings are what a user of each provider already has:
// the provider URL and key in the environment, codex's provider entry in
// ~/.codex/config.toml and gemini's auth type in ~/.gemini/settings.json.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BIN_DIR, eventually, git, makeRepo, makeScratch, REPO } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { formatCost } from '../../shared/format/money';
import { startMockModels } from './mockModels';
import type { MockModels } from './mockModels';

const ADAPTER_BIN = path.join(REPO, '.adapters', 'bin');
/**
 * `reportsCost`: the adapter puts a cost in its usage_update (claude-agent-acp: the SDK's
 * total_cost_usd for the tokens the mock says it used). codex-acp reports tokens only, so a
 * capped codex lane must say its cap cannot hold. gemini's cost is not checked here.
 */
const HARNESSES: { name: string; model: string; reportsCost?: boolean }[] = [
  { name: 'claude', model: 'claude-sonnet-4-5', reportsCost: true },
  { name: 'codex', model: 'gpt-5.5', reportsCost: false },
  { name: 'gemini', model: 'gemini-2.5-pro' },
];
const only = process.env.SVC_ADAPTERS ? process.env.SVC_ADAPTERS.split(',') : undefined;

/** The user's own setup for each provider, pointed at the mock. */
function userSetup(s: Scratch, mock: MockModels): void {
  Object.assign(s.env, {
    PATH: [ADAPTER_BIN, BIN_DIR, process.env.PATH].join(path.delimiter),
    ANTHROPIC_BASE_URL: mock.url,
    ANTHROPIC_API_KEY: 'sk-ant-mock',
    OPENAI_API_KEY: 'sk-openai-mock',
    GEMINI_API_KEY: 'gemini-mock',
    GOOGLE_GEMINI_BASE_URL: mock.url,
  });
  const codexHome = path.join(s.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      'model_provider = "mock"',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${mock.url}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
  const geminiHome = path.join(s.home, '.gemini');
  fs.mkdirSync(geminiHome, { recursive: true });
  fs.writeFileSync(
    path.join(geminiHome, 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2),
  );
}

describe('real adapters against the mock model server', function () {
  this.timeout(180_000);
  let s: Scratch;
  let mock: MockModels;
  let proj: { dir: string; origin: string };

  const svc = async (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
    const r = await s.svc(args, { ...opts, timeoutMs: 150_000 });
    assert.equal(r.code, 0, `svc ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
    return r.stdout;
  };
  const show = async (ref: string) =>
    JSON.parse(await svc(['conv', 'show', ref, '--json'])) as {
      id: number;
      activity: string;
      alive: boolean;
      spawnError: string | null;
    };
  const log = (ref: string) => svc(['conv', 'log', ref, '--lines', '1000']);
  /** Waits for `want`; a failed start ends the wait at once with the conversation's log. */
  const waitActivity = async (ref: string, want: string, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    let activity = '';
    while (Date.now() < deadline) {
      activity = (await show(ref)).activity;
      if (activity === want) return;
      if (activity === 'failed-to-start') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${ref} is ${activity}, not ${want}\n${await log(ref).catch(() => '')}`);
  };

  before(async function () {
    if (!fs.existsSync(ADAPTER_BIN)) throw new Error(`${ADAPTER_BIN} is missing: run scripts/installAdapters.sh first`);
    mock = await startMockModels({ logFile: process.env.SVC_MOCK_LOG });
    s = makeScratch('adapters');
    userSetup(s, mock);
    proj = makeRepo(s);
    await svc(['project', 'add', 'web', proj.dir]);
  });
  after(async () => {
    await s?.dispose();
    await mock?.close();
  });

  for (const h of HARNESSES) {
    if (only && !only.includes(h.name)) continue;
    describe(h.name, () => {
      const conv = `${h.name}-root`;

      it('a conversation asks before a command, is answered through svc conv answer, runs it and answers', async () => {
        const prompt = [
          `Say hello.`,
          `mock: run! touch asked-${h.name}.txt && echo tool-output-${h.name}`,
          `mock: say finished-${h.name}`,
        ].join('\n');
        await svc([
          'conv',
          'new',
          '--project',
          'web',
          '--harness',
          h.name,
          '--model',
          h.model,
          '--title',
          conv,
          '--prompt',
          prompt,
          '--no-wait',
        ]);
        await waitActivity(conv, 'needs-you');
        assert.ok(!fs.existsSync(path.join(proj.dir, `asked-${h.name}.txt`)), 'nothing ran before the answer');
        await svc(['conv', 'answer', conv, '--allow']);
        await waitActivity(conv, 'idle');
        assert.ok(fs.existsSync(path.join(proj.dir, `asked-${h.name}.txt`)), 'the command ran after the answer');
        const text = await log(conv);
        assert.match(text, new RegExp(`touch asked-${h.name}\\.txt && echo tool-output-${h.name}`), text);
        assert.match(text, new RegExp(`\\ntool-output-${h.name}\\n`), `the command output is in the log:\n${text}`);
        assert.match(text, new RegExp(`finished-${h.name}`), text);
      });

      it('stop, then resume: the conversation answers again', async () => {
        await svc(['conv', 'stop', conv]);
        assert.equal((await show(conv)).activity, 'stopped');
        await svc(['conv', 'resume', conv]);
        await waitActivity(conv, 'idle');
        await svc(['tell', conv, [`mock: say again-${h.name}`].join('\n')]);
        await eventually(
          async () => ((await log(conv)).includes(`again-${h.name}`) ? true : undefined),
          60_000,
          'the answer after resume',
        );
        await waitActivity(conv, 'idle');
      });

      it('a builder lane commits, pushes and files its report', async () => {
        const brief = path.join(s.home, `brief-${h.name}.md`);
        fs.writeFileSync(
          brief,
          [
            'Add a file and report.',
            `mock: run echo ${h.name} > ${h.name}.txt && git add ${h.name}.txt && git commit -q -m "add ${h.name}.txt" && git push -q -u origin HEAD`,
            `mock: run printf 'Added ${h.name}.txt\\n' | "$SVC_BIN" lane report --stdin`,
            `mock: say reported-${h.name}`,
          ].join('\n'),
        );
        const budget = h.reportsCost === undefined ? [] : ['--budget', '5'];
        await svc([
          'lane',
          'start',
          '--parent',
          conv,
          '--run',
          `r${h.name}`,
          '--key',
          'a',
          '--role',
          'builder',
          '--brief',
          brief,
          '--model',
          h.model,
          '--harness',
          h.name,
          ...budget,
        ]);
        const wait = await s.svc(['lane', 'wait', '--run', `r${h.name}`, '--timeout', '120'], { timeoutMs: 140_000 });
        const laneLog = await log(`r${h.name}-a-builder-i1`).catch((e) => String(e));
        assert.equal(wait.code, 0, `${wait.stdout}\n${wait.stderr}\n${laneLog}`);
        assert.match(wait.stdout, new RegExp(`Added ${h.name}\\.txt`));
        assert.match(
          git(proj.dir, s.env, '--git-dir', proj.origin, 'log', '--all', '--format=%s'),
          new RegExp(`^add ${h.name}\\.txt$`, 'm'),
        );
        // It did so in the default sandbox: its harness's state, the mock model's network and its permission answers all work inside.
        const [lane] = JSON.parse(await svc(['lane', 'list', '--run', `r${h.name}`, '--json'])) as {
          sandbox: string;
        }[];
        assert.equal(lane.sandbox, 'workspace');
      });

      if (h.reportsCost !== undefined) {
        it(
          h.reportsCost
            ? 'the cost the adapter reports reaches the lane and its cap'
            : 'a capped lane says its cap cannot hold: the adapter reports no cost',
          async () => {
            const name = `r${h.name}-a-builder-i1`;
            const lane = (JSON.parse(await svc(['lane', 'list', '--json'])) as LaneRecord[]).find(
              (l) => l.name === name,
            )!;
            const conversation = JSON.parse(await svc(['conv', 'show', name, '--json'])) as {
              cost: { amount: number; currency: string } | null;
            };
            const shown = (await svc(['lane', 'show', name])).split('\n');
            if (h.reportsCost) {
              assert.ok(
                conversation.cost && conversation.cost.amount > 0 && conversation.cost.currency === 'USD',
                JSON.stringify(conversation.cost),
              );
              assert.equal(
                lane.budget.spent,
                conversation.cost.amount,
                'the lane counts what its conversation reported',
              );
              assert.deepEqual([lane.budget.state, lane.budget.cap, lane.budget.from], ['ok', 5, 'lane']);
              assert.equal(
                lane.budget.text,
                `${formatCost(conversation.cost.amount)} of $5.00 (${Math.floor((conversation.cost.amount / 5) * 100)}%)`,
              );
              assert.ok(shown.includes(`    budget: ${lane.budget.text}`), shown.join('\n'));
            } else {
              assert.equal(conversation.cost, null, 'the adapter reported no cost');
              assert.deepEqual([lane.budget.state, lane.budget.spent], ['not-enforceable', 0]);
              assert.ok(shown.includes(`    budget: not enforceable — ${h.name} reports no cost`), shown.join('\n'));
            }
          },
        );
      }
    });
  }
});
