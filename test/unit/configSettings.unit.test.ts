// The settable keys, the value-and-source rules behind `svc config get` and the Roles
// view, and the model probe's cache.
import * as assert from 'node:assert/strict';
import { ConfigFile, ProjectsFile } from '../../shared/config';
import { globalConfigKeys, parseConfigKey, projectConfigKeys } from '../../shared/configKeys';
import { ModelProbes, PROBE_FAILURE_TTL_MS, PROBE_TTL_MS } from '../../server/config/modelProbe';
import type { ProbePlan } from '../../server/config/modelProbe';
import { entryFor, reviewSettings } from '../../server/config/roleSettings';
import type { ModelChoices } from '../../shared/protocol/config';

const files = { config: '/h/.svc/config.yaml', projects: '/h/.svc/projects.yaml' };

describe('config: keys and sources', () => {
  it('parses exactly the settable keys', () => {
    assert.deepEqual(parseConfigKey('roles.review.mode'), {
      key: 'roles.review.mode',
      file: 'config',
      path: ['roles', 'review', 'mode'],
      field: 'mode',
      keepDepth: 0,
    });
    assert.deepEqual(parseConfigKey('roles.review.sub.security.model'), {
      key: 'roles.review.sub.security.model',
      file: 'config',
      path: ['roles', 'review', 'sub', 'security', 'model'],
      field: 'model',
      lane: 'security',
      keepDepth: 0,
    });
    assert.deepEqual(parseConfigKey('projects.web.gauntlet.roles.builder.effort'), {
      key: 'projects.web.gauntlet.roles.builder.effort',
      file: 'projects',
      path: ['projects', 'web', 'gauntlet', 'roles', 'builder', 'effort'],
      field: 'effort',
      project: 'web',
      role: 'builder',
      keepDepth: 2,
    });
    for (const bad of [
      'roles.review',
      'roles.review.sub.security.effort',
      'roles.review.sub.style.model',
      'roles.builder.model',
      'projects.web.gauntlet.roles.reviewer.model',
      'projects.Web.gauntlet.roles.builder.model',
      'projects.web.gauntlet.lanes_root',
      'projects.web.gauntlet.roles.builder.model.x',
      'reap.park_min_mb',
      'reap.park_max_mb.x',
      'lanes',
      'lanes.git.x',
      'lanes.root',
    ]) {
      assert.equal(parseConfigKey(bad), undefined, bad);
    }
    // 13 review keys (the debounce among them), reap's two park limits and the lanes' git layout
    assert.equal(globalConfigKeys().length, 16);
    assert.deepEqual(parseConfigKey('roles.review.debounce'), {
      key: 'roles.review.debounce',
      file: 'config',
      path: ['roles', 'review', 'debounce'],
      field: 'debounce',
      keepDepth: 0,
    });
    assert.equal(parseConfigKey('roles.review.sub.security.debounce'), undefined);
    assert.deepEqual(parseConfigKey('lanes.git'), {
      key: 'lanes.git',
      file: 'config',
      path: ['lanes', 'git'],
      field: 'git',
      keepDepth: 0,
    });
    assert.deepEqual(parseConfigKey('reap.park_max_mb'), {
      key: 'reap.park_max_mb',
      file: 'config',
      path: ['reap', 'park_max_mb'],
      field: 'park_max_mb',
      keepDepth: 0,
    });
    // model, effort, harness, permissions, host, sandbox and budget for each of the five roles, and each run's budget
    assert.equal(projectConfigKeys('web').length, 36);
    assert.deepEqual(parseConfigKey('projects.web.gauntlet.budget'), {
      key: 'projects.web.gauntlet.budget',
      file: 'projects',
      path: ['projects', 'web', 'gauntlet', 'budget'],
      field: 'budget',
      project: 'web',
      keepDepth: 2,
    });
    assert.equal(parseConfigKey('projects.web.gauntlet.roles.critic.budget')?.field, 'budget');
    assert.equal(parseConfigKey('projects.Web.gauntlet.budget'), undefined);
    assert.equal(parseConfigKey('projects.web.gauntlet.roles.builder.host')?.field, 'host');
    assert.equal(parseConfigKey('projects.web.gauntlet.roles.critic.sandbox')?.field, 'sandbox');
    assert.equal(parseConfigKey('projects.web.gauntlet.roles.critic.permissions')?.field, 'permissions');
    assert.equal(parseConfigKey('roles.review.permissions'), undefined);
    for (const k of [...globalConfigKeys(), ...projectConfigKeys('web')]) assert.ok(parseConfigKey(k), k);
  });

  it('resolves values: own, inherited from the review parent, default, unset', () => {
    const s = {
      files,
      config: ConfigFile.parse({
        roles: { review: { model: 'parent', harness: 'claude', sub: { security: { model: 'sec' } } } },
      }),
      projects: ProjectsFile.parse({
        projects: { web: { path: '/w', gauntlet: { budget: 12.5, roles: { critic: { model: 'c', budget: 0.75 } } } } },
      }),
    };
    const at = (k: string) => entryFor(parseConfigKey(k)!, s);
    assert.deepEqual(at('roles.review.sub.security.model'), {
      key: 'roles.review.sub.security.model',
      value: 'sec',
      source: 'global',
      from: 'roles.review.sub.security.model',
      file: files.config,
      whenUnset:
        'the security reviewer uses roles.review.model; with neither set, a full review is refused: there is no default model',
      choices: null,
    });
    assert.deepEqual(
      [at('roles.review.sub.correctness.model').value, at('roles.review.sub.correctness.model').from],
      ['parent', 'roles.review.model'],
    );
    assert.deepEqual(
      [at('roles.review.sub.correctness.harness').value, at('roles.review.sub.correctness.harness').source],
      ['claude', 'global'],
    );
    assert.deepEqual(
      [at('roles.review.mode').value, at('roles.review.mode').source, at('roles.review.mode').file],
      ['quick', 'default', null],
    );
    assert.deepEqual(at('roles.review.mode').choices, ['quick', 'full', 'none']);
    // The quiet window: 60 s by default; a number in the file and text in the entry.
    assert.deepEqual(at('roles.review.debounce'), {
      key: 'roles.review.debounce',
      value: '60',
      source: 'default',
      from: null,
      file: null,
      whenUnset:
        'pushes less than 60 s apart make one review of the newest head, started 60 s after the last (0: a review per push)',
      choices: null,
    });
    const zero = { ...s, config: ConfigFile.parse({ roles: { review: { debounce: 0 } } }) };
    assert.deepEqual(
      [
        entryFor(parseConfigKey('roles.review.debounce')!, zero).value,
        entryFor(parseConfigKey('roles.review.debounce')!, zero).source,
      ],
      ['0', 'global'],
    );
    assert.deepEqual(
      [at('projects.web.gauntlet.roles.critic.model').value, at('projects.web.gauntlet.roles.critic.model').source],
      ['c', 'project'],
    );
    // Budgets are numbers in the file and text in entries, like every other value.
    assert.deepEqual(
      [at('projects.web.gauntlet.budget').value, at('projects.web.gauntlet.budget').source],
      ['12.5', 'project'],
    );
    assert.deepEqual(
      [at('projects.web.gauntlet.roles.critic.budget').value, at('projects.web.gauntlet.roles.builder.budget').value],
      ['0.75', null],
    );
    const unset = at('projects.web.gauntlet.roles.builder.model');
    assert.deepEqual([unset.value, unset.source, unset.from, unset.file], [null, 'unset', null, null]);
    assert.equal(
      unset.whenUnset,
      'a builder lane cannot start without a model: set one here, or give it at launch (there is no default model)',
    );
    assert.deepEqual(reviewSettings(s.config, 'security'), {
      mode: 'quick',
      model: 'sec',
      harness: 'claude',
      effort: undefined,
    });
    assert.deepEqual(reviewSettings(s.config, 'performance'), {
      mode: 'quick',
      model: 'parent',
      harness: 'claude',
      effort: undefined,
    });
  });
});

describe('config: model probe cache', () => {
  const plan = (h: string) => ({ profile: { name: h }, cwd: '/x', env: {} }) as unknown as ProbePlan;

  it('probes once per harness, answers from the cache for 10 minutes, and shares a probe in flight', async () => {
    let now = 1_000;
    let calls = 0;
    const probes = new ModelProbes(
      plan,
      () => now,
      async (p) => {
        calls++;
        await new Promise((r) => setTimeout(r, 10));
        return { models: [`${p.profile.name}-1`], source: 'probe' } satisfies ModelChoices;
      },
    );
    const [a, b] = await Promise.all([probes.models('script'), probes.models('script')]);
    assert.deepEqual(a, { models: ['script-1'], source: 'probe' });
    assert.deepEqual(b, a);
    assert.equal(calls, 1);
    now += PROBE_TTL_MS - 1;
    assert.deepEqual(await probes.models('script'), { models: ['script-1'], source: 'cache' });
    assert.equal(calls, 1);
    now += 1;
    assert.equal((await probes.models('script')).source, 'probe');
    assert.equal(calls, 2);
    assert.equal((await probes.models('script', true)).source, 'probe');
    assert.equal(calls, 3);
  });

  it('keeps a failure for a minute only, as unavailable', async () => {
    let now = 0;
    let calls = 0;
    const probes = new ModelProbes(
      plan,
      () => now,
      async () => {
        calls++;
        return { models: [], source: 'unavailable', reason: 'no' } satisfies ModelChoices;
      },
    );
    await probes.models('claude');
    now += PROBE_FAILURE_TTL_MS - 1;
    assert.deepEqual(await probes.models('claude'), { models: [], source: 'unavailable', reason: 'no' });
    assert.equal(calls, 1);
    now += 1;
    await probes.models('claude');
    assert.equal(calls, 2);
  });
});

describe('config: codehost.github.poll_s', () => {
  const parse = (poll_s: unknown) => ConfigFile.safeParse({ codehost: { github: { poll_s } } });
  it('takes 0 (off) or 10 to 86400 seconds, and refuses anything else with the rule', () => {
    for (const ok of [0, 10, 60, 86_400]) assert.equal(parse(ok).success, true, String(ok));
    for (const bad of [5, -1, 86_401, 1.5, '60']) {
      const r = parse(bad);
      assert.equal(r.success, false, String(bad));
    }
    assert.match(JSON.stringify(parse(5).error!.issues), /poll_s is 0 \(off\) or 10 to 86400 seconds/);
  });
});
