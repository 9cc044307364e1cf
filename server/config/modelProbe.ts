// The models a harness offers, asked of the harness itself: start its ACP agent in a
// scratch folder, initialize, open a session, read the `model` config option's values,
// stop it. Answers are cached per harness for 10 minutes (a probe spawns an agent, which
// can take seconds); failures for a minute, so an open panel does not respawn a broken
// harness on every look. Free text stays allowed wherever these are offered.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { client } from '@agentclientprotocol/sdk';
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { ModelChoices } from '../../shared/protocol/config';
import { SVC_VERSION } from '../../shared/version';
import { AgentProcess, findCommand } from '../harness/agentProcess';
import { acpPipes } from '../util/acpPipes';
import { describeExit } from '../util/processExit';
import type { ExitInfo } from '../util/processExit';
import { findOption } from '../harness/modelConfig';
import type { Profile } from '../harness/profiles';

export const PROBE_TTL_MS = 10 * 60_000;
export const PROBE_FAILURE_TTL_MS = 60_000;
export const PROBE_TIMEOUT_MS = 30_000;

/** The option values of a select option, groups flattened. */
export function optionValues(o: SessionConfigOption): string[] {
  if (o.type !== 'select') return [];
  const out: string[] = [];
  for (const x of ((o as { options?: unknown[] }).options ?? []) as {
    value?: unknown;
    options?: { value?: unknown }[];
  }[]) {
    if (Array.isArray(x.options)) {
      for (const y of x.options) if (typeof y.value === 'string') out.push(y.value);
    } else if (typeof x.value === 'string') out.push(x.value);
  }
  return [...new Set(out)];
}

export interface ProbePlan {
  profile: Profile;
  /** A scratch folder the agent may write in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs one probe; never throws: a failure is `unavailable` with the reason. */
export async function probeModels(plan: ProbePlan): Promise<ModelChoices> {
  const { profile } = plan;
  const unavailable = (why: string): ModelChoices => ({
    models: [],
    source: 'unavailable',
    reason: `harness '${profile.name}': ${why}`,
  });
  fs.mkdirSync(plan.cwd, { recursive: true, mode: 0o700 });
  const command = findCommand(profile.command, plan.env.PATH, plan.cwd);
  if (!command)
    return unavailable(
      `command '${profile.command}' not found${profile.install ? ` (install ${profile.install})` : ''}`,
    );
  const proc = new AgentProcess(command, profile.args, { cwd: plan.cwd, env: plan.env });
  if (proc.pid === undefined) {
    await proc.closed;
    return unavailable(`cannot start '${command}': ${proc.spawnFailure?.code ?? 'unknown error'}`);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const stream = acpPipes(proc.child.stdin, proc.child.stdout);
    // A probe answers no questions: any permission or elicitation is cancelled.
    const app = client({ name: 'svc' })
      .onRequest('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }) as never)
      .onRequest('elicitation/create', () => ({ action: 'cancel' }) as never)
      .onNotification('session/update', () => undefined)
      .onNotification('elicitation/complete', () => undefined);
    const conn = app.connect(stream);
    const gone = proc.closed.then((e) => {
      throw new Error(exitedText(proc, e));
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${Math.round((plan.timeoutMs ?? PROBE_TIMEOUT_MS) / 1000)} s`)),
        plan.timeoutMs ?? PROBE_TIMEOUT_MS,
      );
    });
    const talk = async (): Promise<SessionConfigOption[]> => {
      const init = await conn.agent.request('initialize', {
        protocolVersion: 1,
        clientCapabilities: {},
        clientInfo: { name: 'svc', version: SVC_VERSION },
      });
      const methods = (init.authMethods ?? []).map((m) => m.id);
      if (profile.authMethod && methods.includes(profile.authMethod))
        await conn.agent.request('authenticate', { methodId: profile.authMethod });
      const res = await conn.agent.request('session/new', { cwd: plan.cwd, mcpServers: [] });
      return res.configOptions ?? [];
    };
    const talking = talk();
    // Whichever loses the race settles later; those late rejections are expected.
    for (const p of [talking, gone, timeout]) p.catch(() => undefined);
    const options = await Promise.race([talking, gone, timeout]);
    const model = findOption(options, 'model', ['model']);
    const models = model ? optionValues(model) : [];
    if (models.length === 0) return unavailable('it offers no model choices over ACP; type a model name');
    return { models, source: 'probe' };
  } catch (e) {
    // The connection closes a moment before the exit is seen: prefer the exit and its stderr.
    await Promise.race([proc.closed, new Promise((r) => setTimeout(r, 1000))]);
    return unavailable(proc.exit ? exitedText(proc, proc.exit) : (e as Error).message);
  } finally {
    clearTimeout(timer);
    await stopProbe(proc);
  }
}

function exitedText(proc: AgentProcess, e: ExitInfo): string {
  const tail = proc.stderr().split('\n').slice(-3).join(' ').trim();
  return `the agent exited (${describeExit(e)})${tail ? `: ${tail}` : ''}`;
}

/** EOF first (ACP agents exit on it), then SIGTERM to the group; never SIGKILL. */
async function stopProbe(proc: AgentProcess): Promise<void> {
  proc.closeStdin();
  const exited = (ms: number) =>
    Promise.race([proc.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  if (!(await exited(2000)) || proc.groupAlive()) {
    proc.signalGroup('SIGTERM');
    await exited(5000);
  }
}

interface Cached {
  at: number;
  value: ModelChoices;
}

/** Per-harness cache and de-duplication of probes in flight. */
export class ModelProbes {
  private cache = new Map<string, Cached>();
  private inFlight = new Map<string, Promise<ModelChoices>>();

  constructor(
    private readonly planFor: (harness: string) => ProbePlan,
    private readonly now: () => number,
    private readonly probe: (plan: ProbePlan) => Promise<ModelChoices> = probeModels,
  ) {}

  async models(harness: string, refresh = false): Promise<ModelChoices> {
    const hit = this.cache.get(harness);
    if (hit && !refresh) {
      const ttl = hit.value.source === 'unavailable' ? PROBE_FAILURE_TTL_MS : PROBE_TTL_MS;
      if (this.now() - hit.at < ttl)
        return hit.value.source === 'unavailable' ? hit.value : { ...hit.value, source: 'cache' };
    }
    const running = this.inFlight.get(harness);
    if (running) return running;
    const p = (async () => {
      const plan = this.planFor(harness); // throws for an unknown harness: a usage error
      const value = await this.probe(plan);
      this.cache.set(harness, { at: this.now(), value });
      return value;
    })().finally(() => this.inFlight.delete(harness));
    this.inFlight.set(harness, p);
    return p;
  }
}

/** The probe's scratch folder for `harness`, inside SVC_HOME. */
export function probeDir(svcHome: string, harness: string): string {
  return path.join(svcHome, 'probes', harness);
}
