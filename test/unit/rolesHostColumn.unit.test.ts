// The Roles panel's Host column: config/roles gives each gauntlet role its host
// entry (projects.<key>.gauntlet.roles.<role>.host) and the configured hosts, and the
// page's select offers "this machine" (unset) and each host of config.yaml, keeping a
// hand-set host that is no longer configured visible.
import * as assert from 'node:assert/strict';
import { rolesView } from '../../server/config/rolesView';
import { ConfigFile, ProjectsFile } from '../../shared/config';
import type { ConfigEntry } from '../../shared/protocol/config';
import { selectChoices } from '../../webview/roles/choices';

const files = { config: '/h/.svc/config.yaml', projects: '/h/.svc/projects.yaml' };
const lists = { harnesses: ['claude', 'script'], hosts: ['big', 'gpu'] };

describe('Roles panel: the Host column', () => {
  const s = {
    files,
    config: ConfigFile.parse({
      hosts: { big: { ssh: 'me@big', lanes_root: '~/lanes' }, gpu: { ssh: 'gpu', lanes_root: '~/lanes' } },
    }),
    projects: ProjectsFile.parse({
      projects: {
        web: { path: '/w', gauntlet: { roles: { builder: { model: 'b', host: 'big' }, critic: { host: 'gone' } } } },
      },
    }),
  };
  const view = rolesView(s, lists.harnesses, ['big', 'gpu']);
  const role = (name: string) => view.projects[0].roles.find((r) => r.role === name)!;

  it('config/roles gives every role its host entry, with its source, and the hosts it may name', () => {
    assert.deepEqual(view.hosts, ['big', 'gpu']);
    assert.deepEqual(
      view.projects[0].roles.map((r) => r.role),
      ['builder', 'critic', 'verifier', 'play', 'orchestrator'],
    );
    assert.deepEqual(role('builder').host, {
      key: 'projects.web.gauntlet.roles.builder.host',
      value: 'big',
      source: 'project',
      from: 'projects.web.gauntlet.roles.builder.host',
      file: files.projects,
      whenUnset: 'builder lanes run on this machine, unless the launch names a host',
      choices: null,
    });
    assert.deepEqual(role('verifier').host, {
      key: 'projects.web.gauntlet.roles.verifier.host',
      value: null,
      source: 'unset',
      from: null,
      file: null,
      whenUnset: 'verifier lanes run on this machine, unless the launch names a host',
      choices: null,
    });
  });

  it('the select offers this machine, then each configured host; a host no longer configured still shows, marked', () => {
    const options = (e: ConfigEntry) => selectChoices(e, 'host', lists).map((c) => [c.value, c.text]);
    const offered = [
      ['', 'this machine'],
      ['big', 'big'],
      ['gpu', 'gpu'],
    ];
    assert.deepEqual(options(role('verifier').host), offered);
    assert.deepEqual(options(role('builder').host), offered);
    assert.deepEqual(options(role('critic').host), [...offered, ['gone', 'gone (not under hosts: in config.yaml)']]);
    assert.deepEqual(selectChoices(role('play').host, 'host', { ...lists, hosts: [] }), [
      { value: '', text: 'this machine' },
    ]);
  });

  it('the other selects keep their blank option: unset, default, inherit', () => {
    const mode = view.review.mode;
    assert.deepEqual(selectChoices(mode, 'enum', lists)[0], { value: '', text: 'default (quick)' });
    assert.deepEqual(selectChoices(role('builder').harness, 'harness', lists), [
      { value: '', text: 'unset' },
      { value: 'claude', text: 'claude' },
      { value: 'script', text: 'script' },
    ]);
  });
});
