// ConfigStore (server/config/configStore.ts) over real files in a scratch folder: parsed
// on demand, re-parsed when a file changes, errors naming the file and the field,
// writes that keep comments and refuse invalid results without touching the file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigStore } from '../../server/config/configStore';
import { SvcError } from '../../shared/errors';
import { REPO } from '../helpers/scratch';

function refusal(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    assert.ok(SvcError.is(e, 'invalidConfig'), String(e));
    assert.equal(e.kind, 'usage');
    return e;
  }
  assert.fail('expected an invalidConfig refusal');
}

describe('ConfigStore', () => {
  let dir: string;
  let projects: string;
  let config: string;
  let store: ConfigStore;

  beforeEach(() => {
    dir = path.join(REPO, '.scratch', `configStore-${process.pid}-${Date.now().toString(36)}`);
    fs.mkdirSync(dir, { recursive: true });
    projects = path.join(dir, 'projects.yaml');
    config = path.join(dir, 'config.yaml');
    store = new ConfigStore(projects, config);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('absent or empty files are empty configs with defaults', () => {
    assert.deepEqual(store.projects(), { projects: {} });
    assert.deepEqual(store.config().harnesses, {});
    fs.writeFileSync(projects, '');
    assert.deepEqual(store.projects(), { projects: {} });
    fs.writeFileSync(projects, '# only a comment\n');
    assert.deepEqual(store.projects(), { projects: {} });
  });

  it('fills project defaults: default_branch main, code_host local', () => {
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: /src/web\n');
    assert.deepEqual(store.project('web'), {
      key: 'web',
      path: '/src/web',
      default_branch: 'main',
      code_host: 'local',
    });
  });

  it('an unknown project is a notFound refusal that says how to add one', () => {
    try {
      store.project('nope');
      assert.fail('no refusal');
    } catch (e) {
      assert.ok(SvcError.is(e, 'unknownProject'));
      assert.equal(e.kind, 'notFound');
      assert.equal(
        e.message,
        "unknown project 'nope' (see svc project list; add one with svc project add <key> <path>)",
      );
    }
  });

  it('sees every edit: a new size, an in-place rewrite of the same size, a rename over the file', () => {
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: /a\n');
    assert.equal(store.project('web').path, '/a');
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: /bb\n');
    assert.equal(store.project('web').path, '/bb');
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: /cc\n'); // same size, written at once
    assert.equal(store.project('web').path, '/cc');
    const tmp = `${projects}.tmp`;
    fs.writeFileSync(tmp, 'projects:\n  web:\n    path: /dd\n');
    const st = fs.statSync(projects);
    fs.utimesSync(tmp, st.atime, st.mtime); // same mtime and size: only the inode differs
    fs.renameSync(tmp, projects);
    assert.equal(store.project('web').path, '/dd');
    fs.rmSync(projects);
    assert.deepEqual(store.projects(), { projects: {} });
  });

  it('answers from its cache while the file is unchanged', () => {
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: /a\n');
    const first = store.projects();
    assert.equal(store.projects(), first);
  });

  it('names the file and the field of every problem, one line each', () => {
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: 5\n    code_host: gitlab\n  api: {}\n');
    const e = refusal(() => store.projects());
    const lines = e.message.split('\n');
    assert.equal(lines.length, 3, e.message);
    assert.ok(
      lines.includes(`${projects}: projects.web.path: Invalid input: expected string, received number`),
      e.message,
    );
    assert.ok(
      lines.some((l) => l.startsWith(`${projects}: projects.web.code_host: `)),
      e.message,
    );
    assert.ok(
      lines.includes(`${projects}: projects.api.path: Invalid input: expected string, received undefined`),
      e.message,
    );
  });

  it('names config.yaml and its field too', () => {
    fs.writeFileSync(config, 'harnesses:\n  Bad Name:\n    command: x\n');
    assert.match(
      refusal(() => store.config()).message,
      new RegExp(`^${config.replace(/[.]/g, '\\.')}: harnesses\\.Bad Name: `),
    );
    fs.writeFileSync(config, 'harnesses:\n  mine:\n    command: 5\n');
    assert.equal(
      refusal(() => store.config()).message,
      `${config}: harnesses.mine.command: Invalid input: expected string, received number`,
    );
    fs.writeFileSync(config, 'roles:\n  review:\n    mode: sometimes\n');
    assert.match(
      refusal(() => store.config()).message,
      new RegExp(`^${config.replace(/[.]/g, '\\.')}: roles\\.review\\.mode: `),
    );
  });

  it('a YAML syntax error names the file and the line', () => {
    fs.writeFileSync(projects, 'projects:\n  web: [\n');
    assert.match(
      refusal(() => store.projects()).message,
      new RegExp(`^${projects.replace(/[.]/g, '\\.')}: .*at line 3, column 1`),
    );
  });

  it('recovers when a bad file is fixed', () => {
    fs.writeFileSync(projects, 'projects: 5\n');
    refusal(() => store.projects());
    fs.writeFileSync(projects, 'projects:\n  web:\n    path: /a\n');
    assert.equal(store.project('web').path, '/a');
  });

  it('setIn writes through the YAML document: comments kept, mode 0600', () => {
    fs.writeFileSync(projects, '# my projects\nprojects:\n  # the web app\n  web:\n    path: /a\n');
    store.setIn(projects, ['projects', 'api'], { path: '/b', default_branch: 'trunk' });
    assert.equal(
      fs.readFileSync(projects, 'utf8'),
      '# my projects\nprojects:\n  # the web app\n  web:\n    path: /a\n  api:\n    path: /b\n    default_branch: trunk\n',
    );
    assert.equal(fs.statSync(projects).mode & 0o777, 0o600);
    assert.equal(store.project('api').default_branch, 'trunk');
  });

  it('setIn refuses a result that does not validate and leaves the file untouched', () => {
    const text = 'projects:\n  web:\n    path: /a\n';
    fs.writeFileSync(projects, text);
    const e = refusal(() => store.setIn(projects, ['projects', 'web', 'code_host'], 'gitlab'));
    assert.match(e.message, new RegExp(`^${projects.replace(/[.]/g, '\\.')}: projects\\.web\\.code_host: `));
    assert.equal(fs.readFileSync(projects, 'utf8'), text);
    assert.deepEqual(fs.readdirSync(dir), ['projects.yaml'], 'no temp file left behind');
  });

  it('projectForPath finds the project holding a folder, through symlinks, and not a sibling with a common prefix', () => {
    const web = path.join(dir, 'web');
    fs.mkdirSync(path.join(web, 'src'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'web2'));
    fs.symlinkSync(web, path.join(dir, 'link'));
    fs.writeFileSync(projects, `projects:\n  web:\n    path: ${path.join(dir, 'link')}\n`);
    assert.equal(store.projectForPath(web)?.key, 'web');
    assert.equal(store.projectForPath(path.join(web, 'src'))?.key, 'web');
    assert.equal(store.projectForPath(path.join(dir, 'link', 'src'))?.key, 'web');
    assert.equal(store.projectForPath(path.join(dir, 'web2')), undefined);
    assert.equal(store.projectForPath(dir), undefined);
  });
});
