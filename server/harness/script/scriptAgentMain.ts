// The built-in `script` harness: a deterministic ACP agent over stdio (dist/scriptAgent.js)
// for demos, dry runs of a gauntlet loop without spending tokens, and every test.
// Each prompt's `svc-script` block (or the `scripts:` file the daemon names in
// SVC_SCRIPT_FILE) is run step by step; a prompt without one gets a one-line reply.
// Model and effort are accepted and ignored (run steps see them as $SCRIPT_MODEL and
// $SCRIPT_EFFORT, so a dry run can show what it was given; $SCRIPT_CLIENT_CAPS holds the
// client capabilities svc declared).
//
// Test hooks (environment, set through a harness profile's `env`):
//   SVC_SCRIPT_INIT_DELAY_MS  answer initialize this late (the `starting` activity)
//   SVC_SCRIPT_EXIT_BEFORE    `initialize` or `session/new`: exit 3 on receiving it
//   SVC_SCRIPT_NO_RESUME=1    offer no session/resume (resume starts a fresh session)
//   SVC_SCRIPT_COST_PER_TURN  add this cost (USD) at each turn's end, reported in a usage_update
//   (a `cost: <usd>` step reports spending mid-turn, as real agents do)
//   SVC_SCRIPT_AUTH=<id>      offer auth method <id>; authenticate fails unless SVC_SCRIPT_KEY is set
//   SVC_SCRIPT_PROMPT_AUTH_ERROR=1  answer every prompt with -32000 Authentication required
//   SVC_SCRIPT_MODELS=a,b     accept only these models (others are refused like a real agent)
//   SVC_SCRIPT_LEGACY_MODEL=1 no config options; the model is set with session/set_model (gemini)
import * as fs from 'node:fs';
import { agent, RequestError } from '@agentclientprotocol/sdk';
import type { AgentContext, SessionConfigOption } from '@agentclientprotocol/sdk';
import { SVC_VERSION } from '../../../shared/version';
import { acpPipes } from '../../util/acpPipes';
import { ScriptError, stepsFor } from './scriptSteps';
import { running, runSteps, say } from './scriptTurn';

interface Session {
  id: string;
  cwd: string;
  model: string;
  effort: string;
  turn?: AbortController;
  turns: number;
  /** What the session has "spent" (USD): cost steps and SVC_SCRIPT_COST_PER_TURN, reported as ACP's cumulative session cost. */
  spent: number;
}

const sessions = new Map<string, Session>();
/** What the client declared in initialize (run steps see it as $SCRIPT_CLIENT_CAPS). */
let clientCapabilities: Record<string, unknown> = {};
let nextSession = 1;
const env = process.env;

/** Models advertised in session/new (accepted and ignored), so model probes have a fixed list to find offline. */
const SCRIPT_MODELS = ['script', 'script-fast', 'script-thorough'];

function configOptions(s: Session): SessionConfigOption[] {
  if (env.SVC_SCRIPT_LEGACY_MODEL === '1') return [];
  const only = env.SVC_SCRIPT_MODELS?.split(',');
  const models = only ?? (SCRIPT_MODELS.includes(s.model) ? SCRIPT_MODELS : [...SCRIPT_MODELS, s.model]);
  return [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: s.model,
      options: models.map((m) => ({ value: m, name: m })),
    },
    {
      id: 'effort',
      name: 'Effort',
      category: 'thought_level',
      type: 'select',
      currentValue: s.effort,
      options: ['low', 'medium', 'high'].map((v) => ({ value: v, name: v })),
    },
  ];
}

/** Exits 3 (never answering) when SVC_SCRIPT_EXIT_BEFORE names `step`. */
async function exitBefore(step: string): Promise<void> {
  if (env.SVC_SCRIPT_EXIT_BEFORE !== step) return;
  process.stderr.write(`script agent: exiting before answering ${step} (SVC_SCRIPT_EXIT_BEFORE)\n`, () =>
    process.exit(3),
  );
  await new Promise(() => undefined);
}

function session(id: string): Session {
  const s = sessions.get(id);
  if (!s) throw RequestError.resourceNotFound(id);
  return s;
}

function newSession(cwd: string, id = `script-${process.pid}-${nextSession++}`): Session {
  const s: Session = { id, cwd, model: 'script', effort: 'medium', turns: 0, spent: 0 };
  sessions.set(id, s);
  return s;
}

async function exitNow(code: number): Promise<never> {
  shutdown();
  await new Promise<void>((r) => process.stdout.write('', () => r()));
  process.exit(code);
}

function shutdown(): void {
  for (const c of running) c.kill('SIGTERM');
}

const app = agent({ name: 'svc-script' })
  .onRequest('initialize', async ({ params }) => {
    clientCapabilities = params.clientCapabilities ?? {};
    await exitBefore('initialize');
    const delay = Number(env.SVC_SCRIPT_INIT_DELAY_MS ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    return {
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: false,
        sessionCapabilities: env.SVC_SCRIPT_NO_RESUME === '1' ? {} : { resume: {} },
      },
      authMethods: env.SVC_SCRIPT_AUTH ? [{ id: env.SVC_SCRIPT_AUTH, name: env.SVC_SCRIPT_AUTH }] : [],
      agentInfo: { name: 'svc-script', version: SVC_VERSION },
    };
  })
  .onRequest('authenticate', ({ params }) => {
    if (params.methodId !== env.SVC_SCRIPT_AUTH)
      throw RequestError.invalidParams(undefined, `unknown auth method '${params.methodId}'`);
    if (!env.SVC_SCRIPT_KEY) throw RequestError.authRequired(undefined, 'SVC_SCRIPT_KEY is not set');
    return {};
  })
  .onRequest('session/new', async ({ params }) => {
    await exitBefore('session/new');
    const s = newSession(params.cwd);
    return { sessionId: s.id, configOptions: configOptions(s) };
  })
  .onRequest('session/resume', ({ params }) => {
    // Stateless: any session id can be resumed (its history lives in the daemon's transcript).
    const s = sessions.get(params.sessionId) ?? newSession(params.cwd, params.sessionId);
    return { configOptions: configOptions(s) };
  })
  .onRequest('session/set_config_option', ({ params }) => {
    const s = session(params.sessionId);
    if (params.configId === 'model') {
      const allowed = env.SVC_SCRIPT_MODELS?.split(',');
      if (allowed && !allowed.includes(String(params.value)))
        throw RequestError.invalidParams(undefined, `unknown model '${String(params.value)}'`);
      s.model = String(params.value);
    } else if (params.configId === 'effort') {
      if (!['low', 'medium', 'high'].includes(String(params.value)))
        throw RequestError.invalidParams(undefined, `effort must be low, medium or high`);
      s.effort = String(params.value);
    } else throw RequestError.invalidParams(undefined, `no config option '${params.configId}'`);
    return { configOptions: configOptions(s) };
  })
  .onRequest('session/prompt', async ({ params, client }) => {
    const s = session(params.sessionId);
    if (env.SVC_SCRIPT_PROMPT_AUTH_ERROR === '1') throw RequestError.authRequired();
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const turn = new AbortController();
    s.turn = turn;
    s.turns++;
    const t = {
      client,
      sessionId: s.id,
      cwd: s.cwd,
      signal: turn.signal,
      exit: exitNow,
      spend: (usd: number) => spend(client, s, usd),
      clientMeta: (clientCapabilities._meta ?? {}) as Record<string, unknown>,
      env: { SCRIPT_MODEL: s.model, SCRIPT_EFFORT: s.effort, SCRIPT_CLIENT_CAPS: JSON.stringify(clientCapabilities) },
    };
    try {
      const fallback = env.SVC_SCRIPT_FILE ? readScriptFile(env.SVC_SCRIPT_FILE) : undefined;
      const steps = stepsFor(text, fallback);
      let stopReason: 'end_turn' | 'cancelled' = 'end_turn';
      if (!steps) await say(t, `script agent (${s.model}): no svc-script block in: ${firstLine(text)}`);
      else stopReason = (await runSteps(steps, t)) as 'end_turn' | 'cancelled';
      const cost = Number(env.SVC_SCRIPT_COST_PER_TURN ?? 0);
      if (cost > 0) await spend(client, s, cost);
      return { stopReason };
    } catch (e) {
      if (e instanceof ScriptError) {
        await say(t, `script error: ${e.message}`);
        return { stopReason: 'end_turn' };
      }
      throw e;
    } finally {
      if (s.turn === turn) s.turn = undefined;
    }
  })
  .onNotification('session/cancel', ({ params }) => {
    sessions.get(params.sessionId)?.turn?.abort();
  });

if (env.SVC_SCRIPT_LEGACY_MODEL === '1') {
  app.onRequest(
    'session/set_model',
    (p: unknown) => p as { sessionId: string; modelId: string },
    ({ params }) => {
      session(params.sessionId).model = String(params.modelId);
      return {};
    },
  );
}

/** Adds `usd` to the session's spend and reports the new total, as ACP's usage_update does (cumulative). */
async function spend(client: AgentContext, s: Session, usd: number): Promise<void> {
  s.spent += usd;
  await client.notify('session/update', {
    sessionId: s.id,
    update: {
      sessionUpdate: 'usage_update',
      used: 1000 * s.turns,
      size: 200_000,
      cost: { amount: Math.round(s.spent * 1e6) / 1e6, currency: 'USD' },
    },
  });
}

function readScriptFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ScriptError(`cannot read script file ${file}: ${(e as Error).message}`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

const connection = app.connect(acpPipes(process.stdout, process.stdin));
// ACP agents exit on stdin EOF; take running commands down with us.
void connection.closed.then(() => exitNow(0));
process.on('SIGTERM', () => {
  shutdown();
  process.exit(143);
});
