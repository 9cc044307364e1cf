// `svc config get|set` and the config/* methods on a real daemon: round trips through both
// files, comments and layout kept byte for byte, refusals that leave the file untouched,
// and `svc/changed {topic: config}` for our writes and for edits made outside svc.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { ConfigEntry, RolesView } from '../../shared/protocol/config';
import { configRoles, configSet } from '../../shared/protocol/config';
import { changed } from '../../shared/protocol/daemon';
import { ok } from '../helpers/lanes';
import { eventually, makeScratch, sleep } from '../helpers/scratch';
import type { RunResult, Scratch } from '../helpers/scratch';

const CONFIG = `# svc settings, written by hand
harnesses:
  script:
    env: { SVC_SCRIPT_COST_PER_TURN: "0" }    # keep demos free

roles:
  review:
    mode: quick        # quick until the convoy is tuned
    # reviewer models per lane
    sub:
      correctness:
        model: 'opus'   # the careful one

# the end
`;

function projectsYaml(dir: string): string {
  return `# projects
projects:
  web:
    path: ${dir}
    default_branch: main   # trunk
    gauntlet:
      lanes_root: ${dir}-lanes
      roles:
        critic:
          model: critic-model  # judges
`;
}

function refused(r: RunResult, message: string): void {
  assert.equal(r.code, 1, `expected exit 1\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.equal(r.stderr, message + '\n');
  assert.equal(r.stdout, '');
}

/** A raw connection that records every `svc/changed` notification. */
async function listen(svcHome: string): Promise<{ c: MessageConnection; topics: string[]; close(): void }> {
  const d = JSON.parse(fs.readFileSync(path.join(svcHome, 'server.json'), 'utf8')) as { socketPath: string };
  const socket = net.connect(d.socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const c = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  const topics: string[] = [];
  c.onNotification(changed.method, (p: { topic: string }) => void topics.push(p.topic));
  c.listen();
  return { c, topics, close: () => (c.dispose(), socket.destroy()) };
}

describe('config: svc config get|set', function () {
  this.timeout(120_000);
  let s: Scratch;
  let configFile: string;
  let projectsFile: string;
  let projectDir: string;

  before(async () => {
    s = makeScratch('config-set');
    projectDir = path.join(s.home, 'web');
    fs.mkdirSync(projectDir, { recursive: true });
    fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
    configFile = path.join(s.svcHome, 'config.yaml');
    projectsFile = path.join(s.svcHome, 'projects.yaml');
    fs.writeFileSync(configFile, CONFIG);
    fs.writeFileSync(projectsFile, projectsYaml(projectDir));
    await ok(s.svc(['daemon', 'status']));
  });
  after(async () => s.dispose());

  it('sets and reads global keys, keeping every other byte of config.yaml', async () => {
    let r = await ok(s.svc(['config', 'set', 'roles.review.mode', 'full']));
    assert.equal(r.stdout, `Set roles.review.mode to full in ${configFile}\n`);
    r = await ok(s.svc(['config', 'set', 'roles.review.sub.security.model', 'sonnet-4']));
    assert.equal(r.stdout, `Set roles.review.sub.security.model to sonnet-4 in ${configFile}\n`);
    await ok(s.svc(['config', 'set', 'roles.review.sub.correctness.model', 'opus-4']));
    assert.equal(
      fs.readFileSync(configFile, 'utf8'),
      CONFIG.replace('mode: quick        #', 'mode: full        #').replace(
        "model: 'opus'   # the careful one\n",
        'model: opus-4   # the careful one\n      security:\n        model: sonnet-4\n',
      ),
    );
    r = await ok(s.svc(['config', 'get', 'roles.review.mode']));
    assert.equal(r.stdout, 'full\n', 'the value alone, for $(svc config get …)');
    assert.equal(r.stderr, '');
    r = await ok(s.svc(['config', 'get', 'roles.review.mode', '--show-origin']));
    assert.equal(r.stdout, `global (${configFile})\tfull\n`);
    r = await ok(s.svc(['config', 'get', 'roles.review.sub.security.model', '--json']));
    const e = JSON.parse(r.stdout) as ConfigEntry;
    assert.deepEqual(e, {
      key: 'roles.review.sub.security.model',
      value: 'sonnet-4',
      source: 'global',
      from: 'roles.review.sub.security.model',
      file: configFile,
      whenUnset:
        'the security reviewer uses roles.review.model; with neither set, a full review is refused: there is no default model',
      choices: null,
    });
    r = await ok(s.svc(['config', 'set', 'roles.review.mode', 'full']));
    assert.equal(r.stdout, `roles.review.mode is already full; ${configFile} is unchanged\n`);
  });

  it('sets and reads per-project role keys in projects.yaml, comments kept', async () => {
    const before = fs.readFileSync(projectsFile, 'utf8');
    await ok(s.svc(['config', 'set', 'projects.web.gauntlet.roles.builder.effort', 'high']));
    await ok(s.svc(['config', 'set', 'projects.web.gauntlet.roles.critic.model', 'critic-2']));
    assert.equal(
      fs.readFileSync(projectsFile, 'utf8'),
      before.replace(
        'model: critic-model  # judges\n',
        'model: critic-2  # judges\n        builder:\n          effort: high\n',
      ),
    );
    const r = await ok(s.svc(['config', 'get', 'projects.web.gauntlet.roles.builder.effort']));
    assert.equal(r.stdout, 'high\n');
    const o = await ok(s.svc(['config', 'get', '--show-origin', 'projects.web.gauntlet.roles.builder.effort']));
    assert.equal(o.stdout, `project (${projectsFile})\thigh\n`);
    // Unset: nothing on stdout and exit 1, as git config --get; stderr says what that means.
    for (const extra of [[], ['--show-origin']]) {
      const m = await s.svc(['config', 'get', 'projects.web.gauntlet.roles.builder.model', ...extra]);
      assert.deepEqual(
        [m.code, m.stdout, m.stderr],
        [
          1,
          '',
          'projects.web.gauntlet.roles.builder.model is not set: a builder lane cannot start without a model: set one here, or give it at launch (there is no default model)\n',
        ],
      );
    }
    const j = JSON.parse(
      (await ok(s.svc(['config', 'get', 'projects.web.gauntlet.roles.builder.model', '--json']))).stdout,
    ) as ConfigEntry;
    assert.deepEqual([j.value, j.source], [null, 'unset']);
  });

  it('lists every key with its value and source', async () => {
    const r = await ok(s.svc(['config', 'get']));
    const lines = r.stdout.split('\n');
    assert.match(lines[0], /^KEY +VALUE +SOURCE$/);
    const row = (k: string) => lines.find((l) => l.startsWith(k + ' '))?.split(/ {2,}/);
    assert.deepEqual(row('roles.review.mode'), ['roles.review.mode', 'full', 'global']);
    assert.deepEqual(row('roles.review.model'), ['roles.review.model', '-', 'unset']);
    assert.deepEqual(row('roles.review.sub.security.model'), ['roles.review.sub.security.model', 'sonnet-4', 'global']);
    assert.deepEqual(row('projects.web.gauntlet.roles.builder.effort'), [
      'projects.web.gauntlet.roles.builder.effort',
      'high',
      'project',
    ]);
    assert.deepEqual(row('projects.web.gauntlet.roles.orchestrator.harness'), [
      'projects.web.gauntlet.roles.orchestrator.harness',
      '-',
      'unset',
    ]);
    assert.deepEqual(row('projects.web.gauntlet.roles.critic.host'), [
      'projects.web.gauntlet.roles.critic.host',
      '-',
      'unset',
    ]);
    assert.deepEqual(row('projects.web.gauntlet.roles.critic.budget'), [
      'projects.web.gauntlet.roles.critic.budget',
      '-',
      'unset',
    ]);
    assert.deepEqual(row('projects.web.gauntlet.budget'), ['projects.web.gauntlet.budget', '-', 'unset']);
    assert.deepEqual(row('reap.park_warn_mb'), ['reap.park_warn_mb', '100', 'default']);
    assert.deepEqual(row('reap.park_max_mb'), ['reap.park_max_mb', '1024', 'default']);
    assert.deepEqual(row('roles.review.debounce'), ['roles.review.debounce', '60', 'default']);
    // 13 review keys, 2 reap limits, model, effort, harness, permissions, host, sandbox and budget for each of five roles, and the run budget
    assert.deepEqual(row('lanes.git'), ['lanes.git', 'own', 'default']);
    // and the lanes' git layout
    assert.equal(lines.filter((l) => l !== '').length, 1 + 13 + 2 + 1 + 35 + 1);
    const j = JSON.parse((await ok(s.svc(['config', 'get', '--json']))).stdout) as ConfigEntry[];
    assert.equal(j.length, 52);
  });

  it('shows an inherited lane model and the mode default', async () => {
    await ok(s.svc(['config', 'set', 'roles.review.model', 'parent-model']));
    let r = await ok(s.svc(['config', 'get', 'roles.review.sub.performance.model']));
    assert.equal(r.stdout, 'parent-model\n');
    r = await ok(s.svc(['config', 'get', 'roles.review.sub.performance.model', '--show-origin']));
    assert.equal(r.stdout, `global, inherited from roles.review.model (${configFile})\tparent-model\n`);
    r = await ok(s.svc(['config', 'set', 'roles.review.mode']));
    assert.equal(
      r.stdout,
      `Unset roles.review.mode in ${configFile}; now quick, default: one agent does a combined review pass (quick is the default)\n`,
    );
    r = await ok(s.svc(['config', 'get', 'roles.review.mode']));
    assert.equal(r.stdout, 'quick\n');
    r = await ok(s.svc(['config', 'get', 'roles.review.mode', '--show-origin']));
    assert.equal(r.stdout, 'default: one agent does a combined review pass (quick is the default)\tquick\n');
    assert.doesNotMatch(fs.readFileSync(configFile, 'utf8'), /mode:/);
    assert.match(fs.readFileSync(configFile, 'utf8'), /# reviewer models per lane\n/);
    r = await ok(s.svc(['config', 'set', 'roles.review.model', '--unset']));
    assert.equal(
      r.stdout,
      `Unset roles.review.model in ${configFile}; unset: a review is refused: there is no default model (the convoy lanes may still set their own)\n`,
    );
    r = await ok(s.svc(['config', 'set', 'roles.review.model', '--unset']));
    assert.equal(
      r.stdout,
      `roles.review.model was not set; ${configFile} is unchanged; unset: a review is refused: there is no default model (the convoy lanes may still set their own)\n`,
    );
  });

  it('refuses invalid values with the reason and leaves the file byte for byte', async () => {
    const cfg = fs.readFileSync(configFile);
    const prj = fs.readFileSync(projectsFile);
    refused(
      await s.svc(['config', 'set', 'roles.review.mode', 'fast']),
      `cannot set roles.review.mode to 'fast': Invalid option: expected one of "quick"|"full"|"none"; ~/.svc/config.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'roles.review.effort', 'extreme']),
      `cannot set roles.review.effort to 'extreme': Invalid option: expected one of "low"|"medium"|"high"; ~/.svc/config.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'projects.web.gauntlet.roles.builder.effort', 'extreme']),
      `cannot set projects.web.gauntlet.roles.builder.effort to 'extreme': Invalid option: expected one of "low"|"medium"|"high"; ~/.svc/projects.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'roles.review.sub.security.model', '']),
      `cannot set roles.review.sub.security.model to '': a model must not be empty; ~/.svc/config.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'projects.web.gauntlet.roles.play.model', '   ']),
      `cannot set projects.web.gauntlet.roles.play.model to '   ': a model must not be empty; ~/.svc/projects.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'projects.web.gauntlet.roles.builder.model', 'bad model!']),
      `cannot set projects.web.gauntlet.roles.builder.model to 'bad model!': no model id has a space, '!' (a model id is letters, digits and . _ - : / @ + [ ]); ~/.svc/projects.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'roles.review.harness', 'nosuch']),
      `cannot set roles.review.harness to 'nosuch': unknown harness (use claude, codex, gemini, script, or add a profile under harnesses: in ~/.svc/config.yaml); ~/.svc/config.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'roles.review.speed', 'x']),
      "unknown config key 'roles.review.speed'; the settable keys are roles.review.mode, roles.review.model, roles.review.harness, roles.review.effort, roles.review.debounce, roles.review.sub.<security|correctness|performance|requirements>.model|harness, projects.<key>.gauntlet.roles.<builder|critic|verifier|play|orchestrator>.model|effort|harness|permissions|host|sandbox|budget, projects.<key>.gauntlet.budget, reap.park_warn_mb|park_max_mb, lanes.git",
    );
    refused(
      await s.svc(['config', 'set', 'reap.park_max_mb', '1.5']),
      `cannot set reap.park_max_mb to '1.5': a size is a whole number of MiB, such as 1024; ~/.svc/config.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'projects.nope.gauntlet.roles.builder.model', 'm']),
      "unknown project 'nope' (see svc project list; add one with svc project add <key> <path>)",
    );
    const both = await s.svc(['config', 'set', 'roles.review.mode', 'full', '--unset']);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /^svc config set: give a value or --unset, not both\n/);
    assert.deepEqual(fs.readFileSync(configFile), cfg);
    assert.deepEqual(fs.readFileSync(projectsFile), prj);
  });

  it("sets spend caps: a role's lane budget and each run's budget, written as numbers; a value that is no amount is refused", async () => {
    const before = fs.readFileSync(projectsFile, 'utf8');
    const prj = fs.readFileSync(projectsFile);
    for (const [value, why] of [
      ['ten', 'a budget is an amount of US dollars above 0, like 2.50'],
      ['0', 'a budget is an amount of US dollars above 0, like 2.50'],
      ['2.5.1', 'a budget is an amount of US dollars above 0, like 2.50'],
      ['1e3', 'a budget is an amount of US dollars above 0, like 2.50'],
      ['2000000', 'a budget is at most 1,000,000 US dollars'],
    ]) {
      refused(
        await s.svc(['config', 'set', 'projects.web.gauntlet.roles.builder.budget', value]),
        `cannot set projects.web.gauntlet.roles.builder.budget to '${value}': ${why}; ~/.svc/projects.yaml is unchanged`,
      );
    }
    refused(
      await s.svc(['config', 'set', 'projects.web.gauntlet.budget', '$']),
      `cannot set projects.web.gauntlet.budget to '$': a budget is an amount of US dollars above 0, like 2.50; ~/.svc/projects.yaml is unchanged`,
    );
    assert.deepEqual(fs.readFileSync(projectsFile), prj);

    let r = await ok(s.svc(['config', 'set', 'projects.web.gauntlet.roles.critic.budget', '$2.50']));
    assert.equal(r.stdout, `Set projects.web.gauntlet.roles.critic.budget to 2.5 in ${projectsFile}\n`);
    r = await ok(s.svc(['config', 'set', 'projects.web.gauntlet.budget', '20']));
    assert.equal(r.stdout, `Set projects.web.gauntlet.budget to 20 in ${projectsFile}\n`);
    const text = fs.readFileSync(projectsFile, 'utf8');
    assert.equal(
      text,
      before
        .replace(
          '          model: critic-2  # judges\n',
          '          model: critic-2  # judges\n          budget: 2.5\n',
        )
        .replace(/\n$/, '\n      budget: 20\n'),
      text,
    );
    assert.equal((await ok(s.svc(['config', 'get', 'projects.web.gauntlet.roles.critic.budget']))).stdout, '2.5\n');
    const run = JSON.parse(
      (await ok(s.svc(['config', 'get', 'projects.web.gauntlet.budget', '--json']))).stdout,
    ) as ConfigEntry;
    assert.deepEqual([run.value, run.source, run.choices], ['20', 'project', null]);
    const unset = await s.svc(['config', 'get', 'projects.web.gauntlet.roles.play.budget']);
    assert.equal(
      unset.stderr,
      "projects.web.gauntlet.roles.play.budget is not set: play lanes have no spend cap, unless one is given at launch (the run's cap, if set, still holds)\n",
    );

    await ok(s.svc(['config', 'set', 'projects.web.gauntlet.roles.critic.budget', '--unset']));
    await ok(s.svc(['config', 'set', 'projects.web.gauntlet.budget', '--unset']));
    assert.equal(fs.readFileSync(projectsFile, 'utf8'), before);
  });

  it("sets reap's park limits as numbers in MiB, the default shown while unset", async () => {
    let r = await ok(s.svc(['config', 'set', 'reap.park_max_mb', '2048']));
    assert.equal(r.stdout, `Set reap.park_max_mb to 2048 in ${configFile}\n`);
    assert.match(fs.readFileSync(configFile, 'utf8'), /^reap:\n {2}park_max_mb: 2048$/m);
    r = await ok(s.svc(['config', 'set', 'reap.park_max_mb', '--unset']));
    assert.equal(
      r.stdout,
      `Unset reap.park_max_mb in ${configFile}; now 1024, default: a reap --park over 1024 MiB of files is refused before anything is stopped or changed\n`,
    );
  });

  it("sets the reviews' quiet window as whole seconds, 60 by default, 0 for a review per push", async () => {
    let r = await ok(s.svc(['config', 'set', 'roles.review.debounce', '0']));
    assert.equal(r.stdout, `Set roles.review.debounce to 0 in ${configFile}\n`);
    assert.match(fs.readFileSync(configFile, 'utf8'), /^ {4}debounce: 0$/m);
    assert.equal((await ok(s.svc(['config', 'get', 'roles.review.debounce']))).stdout, '0\n');
    r = await ok(s.svc(['config', 'set', 'roles.review.debounce', '30']));
    assert.equal(r.stdout, `Set roles.review.debounce to 30 in ${configFile}\n`);
    const before = fs.readFileSync(configFile, 'utf8');
    assert.match(before, /^ {4}debounce: 30$/m);
    refused(
      await s.svc(['config', 'set', 'roles.review.debounce', '1.5']),
      `cannot set roles.review.debounce to '1.5': a quiet window is a whole number of seconds, such as 60 (0: a review per push); ~/.svc/config.yaml is unchanged`,
    );
    refused(
      await s.svc(['config', 'set', 'roles.review.debounce', '7200']),
      `cannot set roles.review.debounce to '7200': a quiet window is at most 3600 seconds (an hour); ~/.svc/config.yaml is unchanged`,
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), before);
    r = await ok(s.svc(['config', 'set', 'roles.review.debounce', '--unset']));
    assert.equal(
      r.stdout,
      `Unset roles.review.debounce in ${configFile}; now 60, default: pushes less than 60 s apart make one review of the newest head, started 60 s after the last (0: a review per push)\n`,
    );
    assert.doesNotMatch(fs.readFileSync(configFile, 'utf8'), /debounce/);
  });

  it('sets the lanes’ git layout, own by default, and refuses any other', async () => {
    let r = await ok(s.svc(['config', 'set', 'lanes.git', 'shared']));
    assert.equal(r.stdout, `Set lanes.git to shared in ${configFile}\n`);
    assert.match(fs.readFileSync(configFile, 'utf8'), /^lanes:\n {2}git: shared$/m);
    assert.equal((await ok(s.svc(['config', 'get', 'lanes.git']))).stdout, 'shared\n');
    const before = fs.readFileSync(configFile, 'utf8');
    refused(
      await s.svc(['config', 'set', 'lanes.git', 'mine']),
      `cannot set lanes.git to 'mine': Invalid option: expected one of "own"|"shared"; ~/.svc/config.yaml is unchanged`,
    );
    assert.equal(fs.readFileSync(configFile, 'utf8'), before);
    r = await ok(s.svc(['config', 'set', 'lanes.git', '--unset']));
    assert.equal(
      r.stdout,
      `Unset lanes.git in ${configFile}; now own, default: each new local lane gets a git repository of its own, borrowing the project's objects read-only: nothing of your repository is writable from it (shared: a worktree of your repository, as before)\n`,
    );
    assert.doesNotMatch(fs.readFileSync(configFile, 'utf8'), /^lanes:/m);
  });

  it('refuses a write when the file is already invalid, naming the problem', async () => {
    const broken = fs.readFileSync(configFile, 'utf8') + 'colour: blue\n';
    fs.writeFileSync(configFile, broken);
    const r = await s.svc(['config', 'set', 'roles.review.mode', 'full']);
    refused(r, `${configFile}: (top level): Unrecognized key: "colour"`);
    assert.equal(fs.readFileSync(configFile, 'utf8'), broken);
    fs.writeFileSync(configFile, broken.replace('colour: blue\n', ''));
  });

  it('broadcasts svc/changed topic config for its own writes and for outside edits', async () => {
    const l = await listen(s.svcHome);
    try {
      const res = await l.c.sendRequest(configSet.method, { key: 'roles.review.mode', value: 'none' });
      assert.equal((res as { changed: boolean }).changed, true);
      await eventually(() => l.topics.includes('config'), 5000, 'a notification for config/set');
      await sleep(400); // the folder watch must not announce the daemon's own write again
      assert.deepEqual(l.topics, ['config']);

      // An editor saving in place.
      fs.appendFileSync(configFile, '# touched by hand\n');
      await eventually(() => l.topics.length === 2, 5000, 'a notification for an in-place edit');
      // An editor saving by rename-replace (write a temp file, rename it over).
      const tmp = path.join(s.svcHome, '.projects.yaml.swp');
      fs.writeFileSync(tmp, fs.readFileSync(projectsFile, 'utf8').replace('critic-2', 'critic-3'));
      fs.renameSync(tmp, projectsFile);
      await eventually(() => l.topics.length === 3, 5000, 'a notification for a rename-replace');
      // …and again: the watch survives the replaced inode.
      fs.writeFileSync(tmp, fs.readFileSync(projectsFile, 'utf8').replace('critic-3', 'critic-4'));
      fs.renameSync(tmp, projectsFile);
      await eventually(() => l.topics.length === 4, 5000, 'a notification for a second rename-replace');
      assert.deepEqual(l.topics, ['config', 'config', 'config', 'config']);
      // The new value is read at once (no restart, no stale cache).
      const r = await ok(s.svc(['config', 'get', 'projects.web.gauntlet.roles.critic.model']));
      assert.equal(r.stdout, 'critic-4\n');
      // A write of identical bytes is no change.
      fs.writeFileSync(projectsFile, fs.readFileSync(projectsFile));
      await sleep(400);
      assert.equal(l.topics.length, 4);
    } finally {
      l.close();
    }
  });

  it('gives the Roles view: every role of every project and the review settings, with sources', async () => {
    await ok(s.svc(['config', 'set', 'roles.review.model', 'parent-model']));
    await ok(s.svc(['config', 'set', 'roles.review.sub.requirements.harness', 'script']));
    const l = await listen(s.svcHome);
    let v: RolesView;
    try {
      v = await l.c.sendRequest<RolesView>(configRoles.method, {});
    } finally {
      l.close();
    }
    assert.deepEqual(v.files, { config: configFile, projects: projectsFile });
    assert.deepEqual(v.harnesses, ['claude', 'codex', 'gemini', 'script']);
    assert.deepEqual(
      v.projects.map((p) => [p.key, p.path]),
      [['web', projectDir]],
    );
    const roles = v.projects[0].roles;
    assert.deepEqual(
      roles.map((r) => r.role),
      ['builder', 'critic', 'verifier', 'play', 'orchestrator'],
    );
    const brief = (e: ConfigEntry) => [e.value, e.source];
    assert.deepEqual(brief(roles[0].effort), ['high', 'project']);
    assert.deepEqual(roles[0].effort.choices, ['low', 'medium', 'high']);
    assert.deepEqual(brief(roles[1].model), ['critic-4', 'project']);
    assert.deepEqual(brief(roles[2].model), [null, 'unset']);
    assert.deepEqual(
      [roles[0].budget.key, brief(roles[0].budget), v.projects[0].budget.key, brief(v.projects[0].budget)],
      ['projects.web.gauntlet.roles.builder.budget', [null, 'unset'], 'projects.web.gauntlet.budget', [null, 'unset']],
    );
    assert.equal(
      roles[2].model.whenUnset,
      'a verifier lane cannot start without a model: set one here, or give it at launch (there is no default model)',
    );
    assert.equal(
      roles[4].harness.whenUnset,
      "the launching conversation's harness is used, unless the launch names another",
    );
    assert.deepEqual(brief(v.review.mode), ['none', 'global']);
    assert.deepEqual(v.review.mode.choices, ['quick', 'full', 'none']);
    assert.deepEqual(brief(v.review.model), ['parent-model', 'global']);
    assert.deepEqual(
      v.review.lanes.map((x) => [x.lane, x.model.value, x.model.from, x.harness.value, x.harness.source]),
      [
        ['security', 'sonnet-4', 'roles.review.sub.security.model', null, 'unset'],
        ['correctness', 'opus-4', 'roles.review.sub.correctness.model', null, 'unset'],
        ['performance', 'parent-model', 'roles.review.model', null, 'unset'],
        ['requirements', 'parent-model', 'roles.review.model', 'script', 'global'],
      ],
    );
  });
});
