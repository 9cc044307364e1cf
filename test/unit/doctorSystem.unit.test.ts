// svc doctor's checks besides harnesses: Node (the daemon's and the agents'), git and the
// identity agents commit as, SVC_HOME permissions, code host tokens; and the report text.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkCodeHosts } from '../../server/doctor/codehostCheck';
import { checkGit } from '../../server/doctor/gitCheck';
import { checkHome } from '../../server/doctor/homeCheck';
import { checkNode } from '../../server/doctor/nodeCheck';
import { ConfigFile, ProjectsFile } from '../../shared/config';
import { daemonDownReport, doctorText } from '../../shared/format/doctorText';
import { REPO } from '../helpers/scratch';

describe('svc doctor: system checks (server/doctor/)', () => {
  const root = path.join(REPO, '.scratch', `unit-doctor-system-${process.pid}`);
  const bin = path.join(root, 'bin');
  const home = path.join(root, 'home');
  const gitBin = path.dirname(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim());

  beforeEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    for (const d of [bin, home]) fs.mkdirSync(d, { recursive: true });
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const fakeNode = (version: string) =>
    fs.writeFileSync(path.join(bin, 'node'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });

  it('Node: the daemon on an unsupported Node is a problem; the agents’ node below 22 with claude installed is a note; none at all is a problem', async () => {
    fakeNode('v20.11.0');
    // An npm-installed claude-agent-acp runs on the PATH's node.
    const claude = path.join(bin, 'claude-agent-acp');
    fs.writeFileSync(claude, '#!/usr/bin/env node\n', { mode: 0o755 });
    const [daemon, agents] = await checkNode({ PATH: bin }, 'v18.19.0', claude);
    assert.deepEqual(
      [daemon.status, daemon.text],
      ['problem', 'the daemon runs on Node v18.19.0 (unsupported: svc supports Node 20, 22, 24 and 26)'],
    );
    assert.deepEqual(
      [agents.status, agents.text],
      ['note', `agents run on Node v20.11.0 (${path.join(bin, 'node')}); claude-agent-acp declares Node 22 or newer`],
    );
    assert.match(agents.fix!, /^install Node 22 or newer for claude lanes/);
    const ok = await checkNode({ PATH: bin }, 'v22.3.0', null);
    assert.deepEqual(
      ok.map((c) => c.status),
      ['ok', 'ok'],
    );
    fs.rmSync(path.join(bin, 'node'));
    const none = await checkNode({ PATH: bin }, 'v22.3.0', null);
    assert.deepEqual(
      [none[1].status, none[1].text],
      ['problem', "no node on the agents' PATH (npm-installed harnesses run on it)"],
    );
  });

  it('Node: a claude-agent-acp whose wrapper runs it on Node 22 gets no note, whatever node the PATH has', async () => {
    fakeNode('v20.11.0');
    // The wrapper scripts/installAdapters.sh writes: exec a Node 22 binary of its own.
    const own = path.join(root, 'node22', 'bin', 'node');
    fs.mkdirSync(path.dirname(own), { recursive: true });
    fs.writeFileSync(own, '#!/bin/sh\necho v22.23.3\n', { mode: 0o755 });
    const claude = path.join(bin, 'claude-agent-acp');
    fs.writeFileSync(claude, `#!/bin/sh\nexec "${own}" "/opt/claude/dist/index.js" "$@"\n`, { mode: 0o755 });
    const [, agents] = await checkNode({ PATH: bin }, 'v22.3.0', claude);
    assert.deepEqual(
      [agents.status, agents.text, agents.fix],
      [
        'ok',
        `agents run on Node v20.11.0 (${path.join(bin, 'node')}); claude-agent-acp on Node v22.23.3 (${own}, named by ${claude})`,
        null,
      ],
    );
    // A shebang naming an old node of its own is still a note, about that node.
    fs.writeFileSync(own, '#!/bin/sh\necho v20.1.0\n', { mode: 0o755 });
    fs.writeFileSync(claude, `#!${own}\n`, { mode: 0o755 });
    const [, old] = await checkNode({ PATH: bin }, 'v22.3.0', claude);
    assert.deepEqual(
      [old.status, old.text],
      ['note', `claude-agent-acp runs on Node v20.1.0 (${own}, named by ${claude}); it declares Node 22 or newer`],
    );
  });

  it('git: identity from the user’s git config or the environment; a missing one is a problem with the git config command', async () => {
    // The scratch home lies inside this clone: without a ceiling, git would read the clone's own
    // .git/config (a local user.name there would make "missing" pass as set).
    const env = { PATH: gitBin, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: root };
    const missing = await checkGit(env, home);
    assert.deepEqual(
      missing.slice(1).map((c) => [c.status, c.text, c.fix]),
      [
        [
          'problem',
          'git user.name is not set: agents cannot commit ("Author identity unknown")',
          'git config --global user.name "Your Name"',
        ],
        [
          'problem',
          'git user.email is not set: agents cannot commit ("Author identity unknown")',
          'git config --global user.email you@example.com',
        ],
      ],
    );
    assert.match(missing[0].text, /^git version \d/);
    fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Ada\n\temail = ada@example.com\n');
    assert.deepEqual(
      (await checkGit(env, home)).slice(1).map((c) => [c.status, c.text]),
      [
        ['ok', 'git user.name: Ada'],
        ['ok', 'git user.email: ada@example.com'],
      ],
    );
    const fromEnv = await checkGit({ ...env, GIT_AUTHOR_NAME: 'Env Name' }, home);
    assert.equal(fromEnv[1].text, 'git user.name: Env Name (from GIT_AUTHOR_NAME)');
    const noGit = await checkGit({ PATH: bin, HOME: home }, home);
    assert.deepEqual(
      noGit.map((c) => c.status),
      ['problem'],
    );
  });

  it('SVC_HOME: folders 700, files 600, no symlinks; each problem says the chmod to run', () => {
    const svcHome = path.join(home, '.svc');
    fs.mkdirSync(path.join(svcHome, 'logs'), { recursive: true, mode: 0o700 });
    fs.chmodSync(svcHome, 0o700);
    fs.writeFileSync(path.join(svcHome, 'svc.db'), '', { mode: 0o600 });
    assert.deepEqual(
      checkHome(svcHome).map((c) => [c.status, c.text]),
      [['ok', `${svcHome}: folders 700, files 600`]],
    );
    fs.chmodSync(svcHome, 0o755);
    fs.chmodSync(path.join(svcHome, 'svc.db'), 0o644);
    fs.writeFileSync(path.join(svcHome, 'logs', 'daemon.log'), '', { mode: 0o640 });
    fs.symlinkSync('/etc/passwd', path.join(svcHome, 'config.yaml'));
    assert.deepEqual(
      checkHome(svcHome).map((c) => [c.status, c.text, c.fix]),
      [
        ['problem', `${svcHome} has mode 755; svc needs 700`, `chmod 700 '${svcHome}'`],
        [
          'problem',
          `${path.join(svcHome, 'config.yaml')} is a symlink (svc refuses to follow links in SVC_HOME)`,
          `rm '${path.join(svcHome, 'config.yaml')}'`,
        ],
        [
          'problem',
          `${path.join(svcHome, 'svc.db')} has mode 644; svc needs 600`,
          `chmod 600 '${path.join(svcHome, 'svc.db')}'`,
        ],
        [
          'problem',
          `${path.join(svcHome, 'logs', 'daemon.log')} has mode 640; svc needs 600`,
          `chmod 600 '${path.join(svcHome, 'logs', 'daemon.log')}'`,
        ],
      ],
    );
  });

  it('code hosts: a GitHub project needs a token (GITHUB_TOKEN or codehost.github.token); local ones need none', () => {
    const projects = ProjectsFile.parse({
      projects: { web: { path: '/w', code_host: 'github', github: { owner: 'o', repo: 'r' } }, lib: { path: '/l' } },
    });
    const none = checkCodeHosts(projects, ConfigFile.parse({}), {}, '~/.svc/config.yaml');
    assert.deepEqual(
      none.map((c) => [c.subject, c.status, c.text, c.fix]),
      [
        [
          'web',
          'problem',
          'project web: GitHub o/r, but no token is set',
          'export GITHUB_TOKEN=<token> where the daemon starts, then svc daemon restart; or set codehost.github.token in ~/.svc/config.yaml',
        ],
        ['lib', 'ok', 'project lib: local code host (no token needed)', null],
      ],
    );
    assert.equal(
      checkCodeHosts(projects, ConfigFile.parse({}), { GITHUB_TOKEN: 't' }, '')[0].text,
      'project web: GitHub o/r, token from GITHUB_TOKEN',
    );
    assert.equal(
      checkCodeHosts(projects, ConfigFile.parse({ codehost: { github: { token: 't' } } }), {}, '')[0].text,
      'project web: GitHub o/r, token from codehost.github.token',
    );
  });

  it('prints the report by area with each fix under its problem, then the count', () => {
    const text = doctorText({
      harnesses: [],
      checks: [
        {
          area: 'git',
          subject: 'user.name',
          status: 'problem',
          text: 'git user.name is not set',
          fix: 'git config --global user.name "Your Name"',
        },
        {
          area: 'harness',
          subject: 'codex',
          status: 'note',
          text: 'codex: not installed',
          fix: 'npm install -g @agentclientprotocol/codex-acp',
        },
        { area: 'harness', subject: 'script', status: 'ok', text: 'script: installed', fix: null },
      ],
      problems: 1,
    });
    assert.equal(
      text,
      [
        'harnesses',
        '  note     codex: not installed',
        '           fix: npm install -g @agentclientprotocol/codex-acp',
        '  ok       script: installed',
        'git',
        '  PROBLEM  git user.name is not set',
        '           fix: git config --global user.name "Your Name"',
        '',
        '1 problem',
        '',
      ].join('\n'),
    );
    assert.match(
      doctorText(daemonDownReport('connect ECONNREFUSED', '/h/.svc')),
      /^daemon\n {2}PROBLEM {2}the daemon of \/h\/\.svc is not reachable: connect ECONNREFUSED .*\n {11}fix: svc daemon restart; if it fails again, svc daemon log shows why\n\n1 problem\n$/,
    );
  });
});
