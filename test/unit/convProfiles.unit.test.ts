import * as assert from 'node:assert/strict';
import { shellQuote } from '../../shared/format/shellQuote';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentEnv, scriptFor } from '../../server/conversations/agentEnv';
import { geminiDefaultsEnv } from '../../server/harness/geminiDefaults';
import { resolveProfile } from '../../server/harness/profiles';
import * as errs from '../../server/harness/spawnErrors';
import { ConfigFile } from '../../shared/config';
import { SvcError } from '../../shared/errors';

const CFG = '~/.svc/config.yaml';
const config = (raw: unknown) => ConfigFile.parse(raw);

describe('harness profiles', () => {
  it('built-ins: claude, codex, gemini (--acp) and script (the bundled agent on this node)', () => {
    const c = config({});
    assert.deepEqual(
      [resolveProfile('claude', c, '/d', CFG).command, resolveProfile('claude', c, '/d', CFG).args],
      ['claude-agent-acp', []],
    );
    const codex = resolveProfile('codex', c, '/d', CFG);
    assert.deepEqual([codex.command, codex.authMethod], ['codex-acp', 'api-key']);
    const gemini = resolveProfile('gemini', c, '/d', CFG);
    assert.deepEqual(
      [gemini.command, gemini.args, gemini.authMethod, gemini.preferFreshSession],
      ['gemini', ['--acp'], 'gemini-api-key', true],
    );
    const script = resolveProfile('script', c, '/d', CFG);
    assert.deepEqual(
      [script.command, script.args, script.modelFallback],
      [process.execPath, [path.join('/d', 'scriptAgent.js')], 'none'],
    );
  });

  it("a user's command replaces the built-in's args unless args are given; env merges", () => {
    const c = config({
      harnesses: {
        claude: { command: '/opt/claude-acp', env: { IS_SANDBOX: '1' } },
        gemini: { args: ['--experimental-acp'] },
      },
    });
    const claude = resolveProfile('claude', c, '/d', CFG);
    assert.deepEqual([claude.command, claude.args, claude.env], ['/opt/claude-acp', [], { IS_SANDBOX: '1' }]);
    assert.deepEqual(resolveProfile('codex', config({ harnesses: { codex: { env: { A: '1' } } } }), '/d', CFG).env, {
      A: '1',
    });
    assert.deepEqual(resolveProfile('gemini', c, '/d', CFG).args, ['--experimental-acp']);
  });

  it("gemini: --acp is kept apart from the user's command and args; its lanes' folders are trusted", () => {
    const c = config({ harnesses: { gemini: { command: '/opt/gemini-wrapper', env: { X: '1' } } } });
    const g = resolveProfile('gemini', c, '/d', CFG);
    const defaults = geminiDefaultsEnv('/d');
    assert.deepEqual(
      [g.command, g.args, g.env],
      ['/opt/gemini-wrapper', ['--acp'], { GEMINI_CLI_TRUST_WORKSPACE: 'true', ...defaults, X: '1' }],
    );
    assert.deepEqual(
      resolveProfile('gemini', config({ harnesses: { gemini: { args: ['--debug'] } } }), '/d', CFG).args,
      ['--debug', '--acp'],
    );
    assert.deepEqual(
      resolveProfile('gemini', config({ harnesses: { gemini: { args: ['--acp', '--debug'] } } }), '/d', CFG).args,
      ['--acp', '--debug'],
    );
    assert.deepEqual(
      resolveProfile(
        'gemini',
        config({ harnesses: { gemini: { env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } } } }),
        '/d',
        CFG,
      ).env,
      {
        GEMINI_CLI_TRUST_WORKSPACE: 'false',
        ...defaults,
      },
    );
  });

  it("gemini gets svc's system defaults (no pseudo-terminal, so command output reaches ACP) unless someone else's are in force", () => {
    const none = '/nonexistent/system-defaults.json';
    assert.deepEqual(geminiDefaultsEnv('/d', {}, none), {
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: path.join('/d', 'harness', 'gemini-system-defaults.json'),
    });
    assert.deepEqual(geminiDefaultsEnv('/d', { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/mine.json' }, none), {});
    assert.deepEqual(geminiDefaultsEnv('/d', { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/admin.json' }, none), {});
    assert.deepEqual(geminiDefaultsEnv('/d', {}, __filename), {}, "an administrator's file is left in place");
    const shipped = JSON.parse(
      fs.readFileSync(path.join(__dirname, '..', '..', 'server', 'harness', 'gemini-system-defaults.json'), 'utf8'),
    );
    assert.deepEqual(shipped, { tools: { shell: { enableInteractiveShell: false } } });
  });

  it('claude: IS_SANDBOX=1 exactly when svc runs as root (claude refuses root otherwise)', () => {
    const env = resolveProfile('claude', config({}), '/d', CFG).env;
    assert.deepEqual(env, process.getuid!() === 0 ? { IS_SANDBOX: '1' } : {});
  });

  it('user profiles need a command; unknown names are refused listing what exists', () => {
    const c = config({ harnesses: { mine: { command: 'my-acp', args: ['--stdio'] }, broken: { args: ['x'] } } });
    assert.deepEqual(
      [resolveProfile('mine', c, '/d', CFG).command, resolveProfile('mine', c, '/d', CFG).args],
      ['my-acp', ['--stdio']],
    );
    assert.throws(
      () => resolveProfile('broken', c, '/d', CFG),
      (e: unknown) =>
        SvcError.is(e, 'harnessWithoutCommand') &&
        e.message === "harness 'broken' has no command; set harnesses.broken.command in ~/.svc/config.yaml",
    );
    assert.throws(
      () => resolveProfile('nope', c, '/d', CFG),
      (e: unknown) =>
        SvcError.is(e, 'unknownHarness') &&
        e.message ===
          "unknown harness 'nope' (built in: claude, codex, gemini, script; configured: mine, broken; add one under harnesses: in ~/.svc/config.yaml)",
    );
  });
});

describe('spawn error messages say the cause and the fix', () => {
  const c = config({});
  const claude = resolveProfile('claude', c, '/d', CFG);
  const codex = resolveProfile('codex', c, '/d', CFG);
  it('binary not found', () => {
    assert.equal(
      errs.commandNotFound(claude, CFG).message,
      "harness 'claude': command 'claude-agent-acp' not found on PATH; install @agentclientprotocol/claude-agent-acp or set harnesses.claude.command in ~/.svc/config.yaml",
    );
  });
  it('authenticate and session/new failures name the credentials', () => {
    assert.equal(
      errs.stepFailed(codex, CFG, 'authenticate (api-key)', 'missing key', -32000).message,
      "harness 'codex': authenticate (api-key) failed: missing key (-32000); set CODEX_API_KEY or OPENAI_API_KEY in the environment svc runs in or under harnesses.codex.env in ~/.svc/config.yaml",
    );
    assert.equal(
      errs.stepFailed(claude, CFG, 'session/new', 'root is not allowed').message,
      "harness 'claude': session/new failed: root is not allowed; set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN in the environment svc runs in or under harnesses.claude.env in ~/.svc/config.yaml; as root, claude-agent-acp needs IS_SANDBOX=1 (set harnesses.claude.env.IS_SANDBOX)",
    );
    assert.equal(
      errs.authRequired(claude, CFG, 'Authentication required').message,
      "harness 'claude': authentication required on the first prompt: Authentication required; set ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN in the environment svc runs in or under harnesses.claude.env in ~/.svc/config.yaml",
    );
  });
  it('an initialize that never answers', () => {
    const gemini = resolveProfile('gemini', config({ harnesses: { gemini: { command: 'my-gemini' } } }), '/d', CFG);
    assert.equal(
      errs.noAnswer(gemini, 'initialize', 30).message,
      "harness 'gemini': no answer to initialize within 30 s; is 'my-gemini --acp' an ACP agent on stdio? (svc adds --acp after harnesses.gemini.args; a wrapper set as harnesses.gemini.command must pass it on)",
    );
    assert.equal(
      errs.noAnswer(codex, 'initialize', 30).message,
      "harness 'codex': no answer to initialize within 30 s; is 'codex-acp' an ACP agent on stdio?",
    );
  });
  it('an agent that exits early: its stderr without colour codes', () => {
    const gemini = resolveProfile('gemini', c, '/d', CFG);
    const stderr = '\x1b[31mError:\x1b[0m folder \x1b]8;;file:///w\x07/w\x1b]8;;\x07 is not trusted\x1b[2K\n';
    assert.equal(
      errs.exitedEarly(gemini, CFG, 'initialize', 'exit 55', stderr).message,
      "harness 'gemini': 'gemini --acp' exited (exit 55) before initialize answered; check harnesses.gemini in ~/.svc/config.yaml; its stderr ended with:\nError: folder /w is not trusted",
    );
  });
});

describe('agent environment', () => {
  const profile = resolveProfile(
    'script',
    config({
      harnesses: {
        script: { env: { A: '1' }, scripts: { 'agent-*-review-*': 'scripts/review.yaml', '*': 'scripts/any.yaml' } },
      },
    }),
    '/d',
    CFG,
  );
  const base = { PATH: `/usr/bin:/shim`, HOME: '/h', SVC_CONVERSATION: '99', SVC_HOME: '/old' };
  it('gives SVC_CONVERSATION, its credential, SVC_HOME and the shim first on PATH', () => {
    const env = agentEnv({
      convId: 7,
      convName: 'agent-web-7-review-security',
      bare: false,
      extraEnv: { SVC_REVIEW_LANE: 'security' },
      profile,
      svcHome: '/home/u/.svc',
      shimDir: '/shim',
      base: { ...base, SVC_CALLER_TOKEN: 'inherited' },
      callerToken: 'cred-7',
    });
    assert.deepEqual(
      [
        env.SVC_CONVERSATION,
        env.SVC_CALLER_TOKEN,
        env.SVC_HOME,
        env.PATH,
        env.A,
        env.SVC_REVIEW_LANE,
        env.SVC_SCRIPT_FILE,
      ],
      ['7', 'cred-7', '/home/u/.svc', '/shim:/usr/bin', '1', 'security', '/home/u/.svc/scripts/review.yaml'],
    );
  });
  it('a bare (play) agent gets no service context', () => {
    const env = agentEnv({
      convId: 7,
      convName: 'r-k-play-i1',
      bare: true,
      extraEnv: null,
      profile,
      svcHome: '/home/u/.svc',
      shimDir: '/shim',
      base: { ...base, SVC_BIN: '/old/svc', SVC_CALLER_TOKEN: 'inherited' },
      callerToken: 'cred-7',
    });
    assert.deepEqual(
      [env.SVC_CONVERSATION, env.SVC_CALLER_TOKEN, env.SVC_HOME, env.SVC_BIN, env.PATH],
      [undefined, undefined, undefined, undefined, '/usr/bin'],
    );
  });
  it("a lane's pushes to its local remotes go through svc, after the environment's own GIT_CONFIG_* entries", () => {
    const env = agentEnv({
      convId: 7,
      convName: 'r-k-builder-i1',
      bare: false,
      extraEnv: null,
      profile,
      svcHome: '/home/u/.svc',
      shimDir: '/shim',
      base: { ...base, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.pager', GIT_CONFIG_VALUE_0: 'cat' },
      callerToken: 'cred-7',
      pushThroughSvc: ['/home/u/proj-origin.git', 'file:///srv/other.git'],
    });
    assert.deepEqual(Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('GIT_CONFIG_'))), {
      GIT_CONFIG_COUNT: '4',
      GIT_CONFIG_KEY_0: 'core.pager',
      GIT_CONFIG_VALUE_0: 'cat',
      GIT_CONFIG_KEY_1: 'url.svc::/home/u/proj-origin.git.pushInsteadOf',
      GIT_CONFIG_VALUE_1: '/home/u/proj-origin.git',
      GIT_CONFIG_KEY_2: 'url.svc::file:///srv/other.git.pushInsteadOf',
      GIT_CONFIG_VALUE_2: 'file:///srv/other.git',
      // The helper by absolute paths, for a login shell's git, whose PATH has neither.
      GIT_CONFIG_KEY_3: 'alias.remote-svc',
      GIT_CONFIG_VALUE_3: `!${shellQuote(process.execPath)} /shim/git-remote-svc`,
    });
  });
  it('SVC_BIN names the shim by absolute path, for shells that reset PATH', () => {
    const env = agentEnv({
      convId: 7,
      convName: 'r-k-builder-i1',
      bare: false,
      extraEnv: null,
      profile,
      svcHome: '/home/u/.svc',
      shimDir: '/opt/svc/bin',
      base,
      callerToken: 'cred-7',
    });
    assert.equal(env.SVC_BIN, '/opt/svc/bin/svc');
  });
  it("the user's git identity fills GIT_AUTHOR_*/GIT_COMMITTER_* the environment does not set", () => {
    const gitIdentity = {
      GIT_AUTHOR_NAME: 'Ada',
      GIT_COMMITTER_NAME: 'Ada',
      GIT_AUTHOR_EMAIL: 'ada@x.invalid',
      GIT_COMMITTER_EMAIL: 'ada@x.invalid',
    };
    const env = agentEnv({
      convId: 7,
      convName: 'r-k-builder-i1',
      bare: false,
      extraEnv: null,
      profile,
      svcHome: '/s',
      shimDir: '/shim',
      base: { ...base, GIT_AUTHOR_NAME: 'Own' },
      gitIdentity,
      callerToken: 'cred-7',
    });
    assert.deepEqual(
      [env.GIT_AUTHOR_NAME, env.GIT_COMMITTER_NAME, env.GIT_AUTHOR_EMAIL, env.GIT_COMMITTER_EMAIL],
      ['Own', 'Ada', 'ada@x.invalid', 'ada@x.invalid'],
    );
  });
  it("forge credentials of the daemon's environment reach no agent; a profile's own env is the explicit opt-in", () => {
    const forge = {
      ...base,
      GITHUB_TOKEN: 'ghp_daemon',
      GH_TOKEN: 'gho_daemon',
      GITHUB_WEBHOOK_SECRET: 's',
      GH_ENTERPRISE_TOKEN: 'e',
      SVC_GITHUB_APP_PRIVATE_KEY: 'k',
    };
    for (const bare of [false, true]) {
      const env = agentEnv({
        convId: 7,
        convName: 'agent-web-7',
        bare,
        extraEnv: null,
        profile,
        svcHome: '/home/u/.svc',
        shimDir: '/shim',
        base: forge,
        callerToken: 'cred-7',
      });
      assert.deepEqual(
        Object.keys(env).filter((k) => /GITHUB|GH_|APP_PRIVATE/.test(k)),
        [],
      );
    }
    const withToken = resolveProfile(
      'script',
      config({ harnesses: { script: { env: { GH_TOKEN: 'gho_role' } } } }),
      '/d',
      CFG,
    );
    const env = agentEnv({
      convId: 7,
      convName: 'agent-web-7',
      bare: false,
      extraEnv: null,
      profile: withToken,
      svcHome: '/h',
      shimDir: '/shim',
      base: forge,
      callerToken: 'cred-7',
    });
    assert.deepEqual([env.GH_TOKEN, env.GITHUB_TOKEN], ['gho_role', undefined]);
  });
  it('the first matching scripts: glob wins', () => {
    assert.equal(scriptFor({ 'a-*': 'one', '*': 'two' }, 'a-b'), 'one');
    assert.equal(scriptFor({ 'a-*': 'one', '*': 'two' }, 'b'), 'two');
    assert.equal(scriptFor({ 'a-?': 'one' }, 'a-bc'), undefined);
  });
});
