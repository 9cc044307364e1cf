// `svc doctor` end to end: the real shim asks the real daemon, which checks the PATH and
// credentials it was started with (fake harness binaries in a scratch folder), the git
// identity, SVC_HOME and the settings; exit 1 while a problem remains, 0 after the fix.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DoctorReport } from '../../shared/protocol/doctor';
import { BIN_DIR, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('svc doctor', function () {
  this.timeout(90_000);
  let s: Scratch;
  let PATH: string;

  before(() => {
    s = makeScratch('doctor');
    // Only what the test puts there: no real adapter a machine may have installed.
    const sys = path.join(s.root, 'sysbin');
    const fake = path.join(s.root, 'fakebin');
    fs.mkdirSync(sys);
    fs.mkdirSync(fake);
    // bubblewrap too: lanes run in its sandbox by default (its absence is a problem, tested last).
    for (const tool of ['git', 'sh', 'bwrap'])
      fs.symlinkSync(
        execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(),
        path.join(sys, tool),
      );
    fs.symlinkSync(process.execPath, path.join(sys, 'node'));
    const pkg = path.join(s.root, 'lib', 'node_modules', '@agentclientprotocol', 'codex-acp');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: '@agentclientprotocol/codex-acp', version: '2.6.0' }),
    );
    fs.writeFileSync(path.join(pkg, 'dist', 'index.js'), '#!/bin/sh\nexit 9\n', { mode: 0o755 });
    fs.symlinkSync(path.join(pkg, 'dist', 'index.js'), path.join(fake, 'codex-acp'));
    fs.writeFileSync(
      path.join(fake, 'claude-agent-acp'),
      '#!/bin/sh\n[ "$1" = --version ] && echo 0.101.0 && exit 0\nexit 2\n',
      { mode: 0o755 },
    );
    PATH = [BIN_DIR, fake, sys].join(path.delimiter);
    for (const k of [
      'ANTHROPIC_API_KEY',
      'CLAUDE_CODE_OAUTH_TOKEN',
      'CODEX_API_KEY',
      'OPENAI_API_KEY',
      'GEMINI_API_KEY',
      'GITHUB_TOKEN',
      'INITIAL_AGENT_MODE',
    ])
      delete s.env[k];
    Object.assign(s.env, { PATH, ANTHROPIC_API_KEY: 'sk-ant-test' });
  });
  after(async () => s?.dispose());

  it('reports each harness, Node, git, SVC_HOME and the daemon; a missing key is a problem with its fix (exit 1)', async () => {
    const r = await s.svc(['doctor']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const out = r.stdout;
    const line = (start: string) => out.split('\n').find((l) => l.startsWith(start));
    assert.equal(
      line('  ok       claude: installed'),
      `  ok       claude: installed at ${path.join(s.root, 'fakebin', 'claude-agent-acp')}, version 0.101.0; lanes run in: bypassPermissions (every tool call allowed without asking), set by svc on each lane's session; a role set to ask runs in default (asks before edits and commands)`,
    );
    assert.equal(line('  ok       claude: credentials'), '  ok       claude: credentials from ANTHROPIC_API_KEY');
    assert.match(
      out,
      /\n {2}PROBLEM {2}codex: no credentials \(CODEX_API_KEY or OPENAI_API_KEY is not set for agents, and no ~\/\.codex\/auth\.json\)\n {11}fix: export CODEX_API_KEY=<your key> where the daemon starts, then svc daemon restart; or set harnesses\.codex\.env\.CODEX_API_KEY in ~\/\.svc\/config\.yaml\n/,
    );
    assert.equal(line('  note     gemini:'), "  note     gemini: not installed (gemini not found on the agents' PATH)");
    assert.match(out, /\n {2}ok {7}the daemon runs on Node v\d+/);
    assert.match(out, /\n {2}ok {7}git user\.email: test@svc\.invalid \(from GIT_AUTHOR_EMAIL\)\n/);
    assert.match(out, new RegExp(`\\n {2}ok {7}${s.svcHome.replace(/[.]/g, '\\.')}: folders 700, files 600\\n`));
    assert.match(
      out,
      new RegExp(
        `\\nsandbox\\n {2}ok {7}lanes run in the workspace sandbox by default \\(${path.join(s.root, 'sysbin', 'bwrap').replace(/[.]/g, '\\.')} \\d+\\.\\d+\\.\\d+\\)\\n`,
      ),
    );
    assert.match(out, /\ndaemon\n {2}ok {7}daemon pid \d+, version /);
    assert.ok(out.endsWith('\n1 problem\n'), out);
  });

  it('--json gives the report the extension shows, with the harness facts the pickers use', async () => {
    const r = await s.svc(['doctor', '--json']);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout) as DoctorReport;
    assert.equal(report.problems, 1);
    assert.deepEqual(
      report.harnesses.map((h) => [h.name, h.installed, h.version, h.auth.found, h.used]),
      [
        ['claude', true, '0.101.0', 'ANTHROPIC_API_KEY', false],
        ['codex', true, '2.6.0', null, false],
        ['gemini', false, null, null, false],
        ['script', true, r.stdout.match(/"name": "script"[\s\S]*?"version": "([^"]+)"/)![1], null, false],
      ],
    );
  });

  it('a harness a setting uses must be installed; with the key set and the daemon restarted, no problem remains (exit 0)', async () => {
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), 'roles:\n  review:\n    harness: gemini\n', { mode: 0o600 });
    const used = await s.svc(['doctor']);
    assert.equal(used.code, 1);
    assert.match(
      used.stdout,
      /\n {2}PROBLEM {2}gemini: not installed \(gemini not found on the agents' PATH\); a setting or profile uses it\n {11}fix: npm install -g @google\/gemini-cli, or set harnesses\.gemini\.command in ~\/\.svc\/config\.yaml to its path; then svc daemon restart/,
    );
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), '', { mode: 0o600 });
    assert.equal((await s.svc(['daemon', 'stop'])).code, 0);
    const fixed = await s.svc(['doctor'], { env: { CODEX_API_KEY: 'sk-test' } });
    assert.equal(fixed.code, 0, fixed.stdout);
    assert.match(fixed.stdout, /\n {2}ok {7}codex: credentials from CODEX_API_KEY\n/);
    assert.ok(fixed.stdout.endsWith('\nno problems\n'), fixed.stdout);
  });

  it('without bubblewrap the default sandbox is a problem, with the fix; a role that turns it off is named', async () => {
    fs.rmSync(path.join(s.root, 'sysbin', 'bwrap'));
    const projects = path.join(s.svcHome, 'projects.yaml');
    fs.writeFileSync(
      projects,
      `projects:\n  proj:\n    path: ${s.home}\n    gauntlet:\n      roles:\n        critic:\n          sandbox: off\n`,
      { mode: 0o600 },
    );
    assert.equal((await s.svc(['daemon', 'stop'])).code, 0);
    try {
      const r = await s.svc(['doctor'], { env: { CODEX_API_KEY: 'sk-test' } });
      assert.equal(r.code, 1, r.stdout);
      assert.ok(
        r.stdout.includes(
          [
            'sandbox',
            "  PROBLEM  lanes in the workspace sandbox (the default) cannot start: bubblewrap (bwrap) is not installed or not on the daemon's PATH",
            '           fix: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or run the lane unconfined with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)',
            '  note     lanes of project proj critic (gauntlet.roles.critic.sandbox: off) run unconfined, as you',
          ].join('\n'),
        ),
        r.stdout,
      );
    } finally {
      fs.symlinkSync(
        execFileSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim(),
        path.join(s.root, 'sysbin', 'bwrap'),
      );
      fs.rmSync(projects);
      await s.svc(['daemon', 'stop']);
    }
  });

  it('when the daemon cannot be reached, that is the one problem, with the reason and the fix', async () => {
    assert.equal((await s.svc(['daemon', 'stop'])).code, 0);
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    fs.chmodSync(s.svcHome, 0o755);
    try {
      const r = await s.svc(['doctor']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(
        r.stdout,
        [
          'daemon',
          `  PROBLEM  the daemon of ${s.svcHome} is not reachable: ${s.svcHome} has mode 755; svc needs 700 (run: chmod 700 '${s.svcHome}') (the other checks run in the daemon)`,
          `           fix: chmod 700 '${s.svcHome}'`,
          '',
          '1 problem',
          '',
        ].join('\n'),
      );
      assert.equal(JSON.parse((await s.svc(['doctor', '--json'])).stdout).problems, 1);
    } finally {
      fs.chmodSync(s.svcHome, 0o700);
    }
  });
});
