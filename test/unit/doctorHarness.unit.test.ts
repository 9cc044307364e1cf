// svc doctor's harness check against fake harness binaries on PATH in a scratch folder:
// not installed (a note, or a problem when a setting uses it), installed with its version
// from the npm package it links into or from --version, credentials present or missing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkHarness } from '../../server/doctor/harnessCheck';
import { laneMode } from '../../server/doctor/laneMode';
import { usedHarnesses } from '../../server/doctor/usedHarnesses';
import { resolveProfile } from '../../server/harness/profiles';
import { ConfigFile, ProjectsFile } from '../../shared/config';
import { REPO } from '../helpers/scratch';

const CFG = '~/.svc/config.yaml';

describe('svc doctor: harness checks (server/doctor/harnessCheck.ts)', () => {
  const root = path.join(REPO, '.scratch', `unit-doctor-harness-${process.pid}`);
  const bin = path.join(root, 'bin');
  const home = path.join(root, 'home');
  const empty = path.join(root, 'empty');
  const profile = (name: string, config: unknown = {}) => resolveProfile(name, ConfigFile.parse(config), '/dist', CFG);
  const env = (o: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: bin, HOME: home, ...o });

  before(() => {
    fs.rmSync(root, { recursive: true, force: true });
    for (const d of [bin, home, empty]) fs.mkdirSync(d, { recursive: true });
    // codex-acp as npm installs it: a link on PATH to the package's script.
    const pkg = path.join(root, 'lib', 'node_modules', '@agentclientprotocol', 'codex-acp');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: '@agentclientprotocol/codex-acp', version: '2.6.0' }),
    );
    fs.writeFileSync(path.join(pkg, 'dist', 'index.js'), '#!/bin/sh\nexit 9\n', { mode: 0o755 });
    fs.symlinkSync(path.join(pkg, 'dist', 'index.js'), path.join(bin, 'codex-acp'));
    // claude-agent-acp as a bare script that answers --version.
    fs.writeFileSync(
      path.join(bin, 'claude-agent-acp'),
      '#!/bin/sh\n[ "$1" = --version ] && echo "claude-agent-acp 0.101.0" && exit 0\nexit 2\n',
      { mode: 0o755 },
    );
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a harness not on PATH is a note with the install command, and a problem when a setting uses it', async () => {
    const r = await checkHarness({
      profile: profile('gemini'),
      builtIn: true,
      used: false,
      env: env(),
      configShown: CFG,
    });
    assert.deepEqual([r.health.installed, r.health.path, r.health.version], [false, null, null]);
    assert.deepEqual(r.checks, [
      {
        area: 'harness',
        subject: 'gemini',
        status: 'note',
        text: "gemini: not installed (gemini not found on the agents' PATH)",
        fix: `npm install -g @google/gemini-cli, or set harnesses.gemini.command in ${CFG} to its path; then svc daemon restart so the daemon sees the new PATH`,
      },
    ]);
    const used = await checkHarness({
      profile: profile('gemini'),
      builtIn: true,
      used: true,
      env: env(),
      configShown: CFG,
    });
    assert.equal(used.checks[0].status, 'problem');
    assert.equal(
      used.checks[0].text,
      "gemini: not installed (gemini not found on the agents' PATH); a setting or profile uses it",
    );
  });

  it('reads the version from the npm package the command links into; missing credentials are a problem with the fix', async () => {
    const r = await checkHarness({
      profile: profile('codex'),
      builtIn: true,
      used: false,
      env: env(),
      configShown: CFG,
    });
    assert.equal(r.health.installed, true);
    assert.equal(r.health.path, path.join(bin, 'codex-acp'));
    assert.equal(r.health.version, '2.6.0');
    assert.deepEqual(r.health.auth, { needs: ['CODEX_API_KEY', 'OPENAI_API_KEY', '~/.codex/auth.json'], found: null });
    assert.equal(r.checks[0].status, 'ok');
    assert.match(
      r.checks[0].text,
      new RegExp(
        `^codex: installed at ${path.join(bin, 'codex-acp').replace(/[.]/g, '\\.')}, version 2\\.6\\.0; lanes run in: agent-full-access \\(full access: no sandbox, writes anywhere, network on\\), set by svc on each lane's session; a role set to ask runs in workspace-write \\(sandboxed: writes only inside the workspace\\)$`,
      ),
    );
    assert.deepEqual(r.checks[1], {
      area: 'harness',
      subject: 'codex',
      status: 'problem',
      text: 'codex: no credentials (CODEX_API_KEY or OPENAI_API_KEY is not set for agents, and no ~/.codex/auth.json)',
      fix: `export CODEX_API_KEY=<your key> where the daemon starts, then svc daemon restart; or set harnesses.codex.env.CODEX_API_KEY in ${CFG}`,
    });
  });

  it('finds credentials in the environment or in the profile env, and names the mode the profile sets', async () => {
    const r = await checkHarness({
      profile: profile('codex'),
      builtIn: true,
      used: true,
      env: env({ OPENAI_API_KEY: 'sk-x' }),
      configShown: CFG,
    });
    assert.deepEqual(
      r.checks.map((c) => [c.status, c.text.split(';')[0]]),
      [
        ['ok', `codex: installed at ${path.join(bin, 'codex-acp')}, version 2.6.0`],
        ['ok', 'codex: credentials from OPENAI_API_KEY'],
      ],
    );
    const p = profile('codex', {
      harnesses: { codex: { env: { CODEX_API_KEY: 'k', INITIAL_AGENT_MODE: 'agent-full-access' } } },
    });
    const r2 = await checkHarness({ profile: p, builtIn: true, used: true, env: env(), configShown: CFG });
    assert.equal(r2.health.auth.found, 'CODEX_API_KEY');
    // svc sets the lane's session mode itself: an adapter's own default (INITIAL_AGENT_MODE) does not decide it.
    const p3 = profile('codex', { harnesses: { codex: { env: { INITIAL_AGENT_MODE: 'read-only' } } } });
    const r3 = await checkHarness({ profile: p3, builtIn: true, used: true, env: env(), configShown: CFG });
    assert.match(r3.health.mode, /^agent-full-access \(/);
  });

  it("counts each harness's own login file as credentials (codex login's ~/.codex/auth.json, under CODEX_HOME when set)", async () => {
    fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
    fs.writeFileSync(path.join(home, '.codex', 'auth.json'), '{}');
    const r = await checkHarness({
      profile: profile('codex'),
      builtIn: true,
      used: true,
      env: env(),
      configShown: CFG,
    });
    assert.deepEqual(
      r.checks.map((c) => [c.status, c.text.split(';')[0]]),
      [
        ['ok', `codex: installed at ${path.join(bin, 'codex-acp')}, version 2.6.0`],
        ['ok', 'codex: credentials from ~/.codex/auth.json'],
      ],
    );
    const elsewhere = path.join(home, 'codex-home');
    const r2 = await checkHarness({
      profile: profile('codex'),
      builtIn: true,
      used: true,
      env: env({ CODEX_HOME: elsewhere }),
      configShown: CFG,
    });
    assert.equal(
      r2.checks[1].text,
      `codex: no credentials (CODEX_API_KEY or OPENAI_API_KEY is not set for agents, and no ~/codex-home/auth.json)`,
    );
    fs.rmSync(path.join(home, '.codex'), { recursive: true });
  });

  it('asks a bare command for --version; Claude also counts its /login credentials file', async () => {
    const r = await checkHarness({
      profile: profile('claude'),
      builtIn: true,
      used: false,
      env: env(),
      configShown: CFG,
    });
    assert.equal(r.health.version, '0.101.0');
    assert.deepEqual(r.health.auth, {
      needs: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', '~/.claude/.credentials.json'],
      found: null,
    });
    assert.equal(
      r.checks[1].text,
      'claude: no credentials (ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN is not set for agents, and no ~/.claude/.credentials.json)',
    );
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude', '.credentials.json'), '{}');
    fs.writeFileSync(
      path.join(home, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { defaultMode: 'default' } }),
    );
    const r2 = await checkHarness({
      profile: profile('claude'),
      builtIn: true,
      used: false,
      env: env(),
      configShown: CFG,
    });
    assert.equal(r2.health.auth.found, '~/.claude/.credentials.json');
    // Its settings file's defaultMode does not decide a lane's mode: svc sets bypassPermissions on the session.
    assert.equal(
      r2.health.mode,
      "bypassPermissions (every tool call allowed without asking), set by svc on each lane's session; a role set to ask runs in default (asks before edits and commands)",
    );
  });

  it('a user profile is checked by its configured command; the script harness is always there', async () => {
    const mine = profile('mine', { harnesses: { mine: { command: path.join(bin, 'claude-agent-acp') } } });
    const r = await checkHarness({
      profile: mine,
      builtIn: false,
      used: true,
      env: env({ PATH: empty }),
      configShown: CFG,
    });
    assert.deepEqual(
      [r.health.installed, r.health.version, r.checks.length, r.checks[0].status],
      [true, '0.101.0', 1, 'ok'],
    );
    const s = await checkHarness({
      profile: resolveProfile('script', ConfigFile.parse({}), '/dist', CFG),
      builtIn: true,
      used: false,
      env: env({ PATH: empty }),
      configShown: CFG,
    });
    assert.equal(s.health.installed, true);
    // Its steps run in the lane's sandbox (svc's, not the harness's own), so doctor says so.
    assert.equal(
      laneMode(resolveProfile('script', ConfigFile.parse({}), '/dist', CFG), true, 'linux'),
      "runs its run steps with sh -c in the lane's workspace sandbox unless its role or launch says off; asks only on ask steps",
    );
    const off = ConfigFile.parse({ harnesses: { script: { sandbox: 'off' } } });
    assert.equal(
      laneMode(resolveProfile('script', off, '/dist', CFG), true, 'linux'),
      'runs its run steps with sh -c unconfined (harnesses.script.sandbox: off); asks only on ask steps',
    );
    assert.equal(
      laneMode(resolveProfile('script', ConfigFile.parse({}), '/dist', CFG), true, 'win32'),
      'runs its run steps with sh -c unconfined (svc has no sandbox on win32); asks only on ask steps',
    );
  });

  it('counts a harness as used when a role, a review setting or a profile names it', () => {
    const config = ConfigFile.parse({
      harnesses: { mine: { command: 'x' } },
      roles: { review: { harness: 'codex', sub: { security: { harness: 'gemini' } } } },
    });
    const projects = ProjectsFile.parse({
      projects: { web: { path: '/w', gauntlet: { roles: { builder: { harness: 'claude' } } } } },
    });
    assert.deepEqual([...usedHarnesses(config, projects)].sort(), ['claude', 'codex', 'gemini', 'mine']);
    assert.deepEqual([...usedHarnesses(ConfigFile.parse({}), ProjectsFile.parse({}))], []);
  });
});
