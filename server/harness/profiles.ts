// Harness profiles: the built-ins (claude, codex, gemini, script) merged with the user's
// `harnesses:` in SVC_HOME/config.yaml. A profile says how to spawn the ACP agent and
// how to drive its quirks (auth method, model/effort fallbacks, resume preference).
import * as path from 'node:path';
import type { ConfigFile, HarnessProfile, SandboxMode } from '../../shared/config';
import { harnessWithoutCommandError, unknownHarnessError } from './harnessRefusals';
import { geminiDefaultsEnv } from './geminiDefaults';

export interface Profile {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** npm package that provides the built-in command, for the "not found" fix. */
  install?: string;
  /** `authenticate` method to call when initialize offers it. */
  authMethod?: string;
  /** Environment variables that carry the credentials, for the auth-failure fix. */
  authEnv?: string[];
  /** How model is set when no `model` config option exists. */
  modelFallback: 'set_model' | 'none';
  /** Config option ids tried for effort when no `thought_level` option exists. */
  effortIds: string[];
  /** Resume by a fresh session even if session/load is offered (gemini's load is buggy). */
  preferFreshSession: boolean;
  /** script harness: conversation-name glob → script file. */
  scripts: Record<string, string>;
  /** Extra hint appended to a session/new failure. */
  sessionHint?: string;
  /**
   * The flag that makes the command speak ACP on stdio, added after the args whatever
   * command or args the user configures (unless the args already hold it or an alias).
   */
  acpFlag?: { flag: string; aliases: string[] };
  /**
   * The environment variable through which the agent also takes any model id: set to the
   * conversation's model at spawn, so ids its model option does not list still apply.
   */
  modelEnv?: string;
  /**
   * The agent's session mode for each permission policy (docs/decisions/harnesses.md, "Harnesses (real adapters)"):
   * `ask` routes the harness's approvals to svc as needs-you requests (a person's
   * conversation); `auto` lets an unattended lane act without asking. Unset: the agent's own default.
   */
  modes: { ask?: string; auto?: string };
  /** Files and folders the harness keeps its state in (`~/` is the agent's home, `${VAR:-fallback}` its environment's): writable inside a sandboxed lane. */
  state: string[];
  /** The sandbox of lanes started with it, unless their role or launch says (config.yaml `harnesses.<name>.sandbox`). */
  sandbox?: SandboxMode;
  /**
   * The agent reads its workspace only through session/new's `cwd`, never from its process's
   * working directory while it starts: its process may then start (and answer `initialize`)
   * while a lane's worktree is still being checked out, session/new waiting for the checkout.
   * Only the script harness, whose code says so; the real adapters read their folder as they
   * start (docs/decisions/performance.md), so they start once the checkout is done.
   */
  startsBeforeCheckout?: boolean;
}

export const PERMISSION_POLICIES = ['ask', 'auto'] as const;
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number];

export const BUILT_IN_HARNESSES = ['claude', 'codex', 'gemini', 'script'] as const;

function builtIn(name: string, distDir: string): Omit<Profile, 'scripts'> | undefined {
  const base = {
    env: {},
    modes: {},
    state: [] as string[],
    modelFallback: 'set_model' as const,
    effortIds: ['effort', 'thought_level', 'reasoning_effort'],
    preferFreshSession: false,
  };
  switch (name) {
    case 'claude':
      return {
        ...base,
        name,
        command: 'claude-agent-acp',
        args: [],
        install: '@agentclientprotocol/claude-agent-acp',
        // Its model option lists only aliases (default, opus, sonnet, haiku…); Claude Code
        // takes full ids (claude-sonnet-4-5) from ANTHROPIC_MODEL.
        modelEnv: 'ANTHROPIC_MODEL',
        // Its own default (`auto`) lets a classifier decide and never asks the client.
        modes: { ask: 'default', auto: 'bypassPermissions' },
        authEnv: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'],
        // Claude Code keeps its settings, sessions and login under ~/.claude and ~/.claude.json.
        state: ['${CLAUDE_CONFIG_DIR:-~/.claude}', '~/.claude.json'],
        // As root claude refuses to start unless told it runs in a sandbox; svc lanes are
        // worktrees the user already chose to run as root (docs/decisions/harnesses.md, "Harnesses (real adapters)").
        env: runningAsRoot() ? { IS_SANDBOX: '1' } : {},
        sessionHint: 'as root, claude-agent-acp needs IS_SANDBOX=1 (set harnesses.claude.env.IS_SANDBOX)',
      };
    case 'codex':
      return {
        ...base,
        name,
        command: 'codex-acp',
        args: [],
        install: '@agentclientprotocol/codex-acp',
        authMethod: 'api-key',
        authEnv: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
        state: ['${CODEX_HOME:-~/.codex}'],
        // A person's conversation: sandboxed, asking the user (`agent` has a model review
        // escalations instead). A lane: full access, because codex keeps every .git folder
        // read-only even when it is named writable, so a sandboxed lane cannot commit.
        modes: { ask: 'workspace-write', auto: 'agent-full-access' },
        effortIds: ['reasoning_effort', 'effort', 'thought_level'],
      };
    case 'gemini':
      return {
        ...base,
        name,
        command: 'gemini',
        args: [],
        acpFlag: { flag: '--acp', aliases: ['--experimental-acp'] },
        // Its default mode asks before every shell command, which would stall a lane.
        modes: { ask: 'default', auto: 'yolo' },
        // Every lane is a new worktree, which gemini treats as an untrusted folder (exit 55);
        // its default pseudo-terminal shell hides command output from ACP (geminiDefaults.ts).
        env: { GEMINI_CLI_TRUST_WORKSPACE: 'true', ...geminiDefaultsEnv(distDir) },
        install: '@google/gemini-cli',
        authMethod: 'gemini-api-key',
        authEnv: ['GEMINI_API_KEY'],
        state: ['~/.gemini'],
        effortIds: [],
        preferFreshSession: true,
      };
    case 'script':
      return {
        ...base,
        name,
        command: process.execPath,
        args: [path.join(distDir, 'scriptAgent.js')],
        modelFallback: 'none',
        startsBeforeCheckout: true,
      };
    default:
      return undefined;
  }
}

/** The profile for `name`: the built-in with the user's overrides, or the user's own. */
export function resolveProfile(name: string, config: ConfigFile, distDir: string, configFileShown: string): Profile {
  const user: HarnessProfile | undefined = config.harnesses[name];
  const base = builtIn(name, distDir);
  if (!base && !user) {
    const custom = Object.keys(config.harnesses).filter((h) => !(BUILT_IN_HARNESSES as readonly string[]).includes(h));
    throw unknownHarnessError(name, BUILT_IN_HARNESSES, custom, configFileShown);
  }
  if (!base && !user?.command) throw harnessWithoutCommandError(name, configFileShown);
  const merged: Profile = {
    modelFallback: 'set_model',
    effortIds: ['effort', 'thought_level', 'reasoning_effort'],
    preferFreshSession: false,
    modes: {},
    state: [],
    name,
    command: '',
    args: [],
    env: {},
    ...base,
    scripts: user?.scripts ?? {},
  };
  if (user?.command) {
    merged.command = user.command;
    // A user command replaces the built-in's arguments unless args are given too.
    merged.args = user.args ?? (base && user.command === base.command ? base.args : []);
    // What the built-in's own program does at start says nothing of another program.
    if (user.command !== base?.command) merged.startsBeforeCheckout = false;
  } else if (user?.args) merged.args = user.args;
  if (user?.env) merged.env = { ...merged.env, ...user.env };
  if (user?.state) merged.state = [...new Set([...merged.state, ...user.state])];
  if (user?.sandbox) merged.sandbox = user.sandbox;
  const acp = merged.acpFlag;
  if (acp && !merged.args.some((a) => a === acp.flag || acp.aliases.includes(a)))
    merged.args = [...merged.args, acp.flag];
  return merged;
}

function runningAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}
