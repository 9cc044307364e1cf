// `svc project add|list` over SVC_HOME/projects.yaml: refusals, errors that name the file
// and the field, comments kept, and hand edits picked up by the running daemon.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { git, makeRepo, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

describe('svc project add|list and projects.yaml', function () {
  let s: Scratch;
  let svc: Svc;
  let web: string;
  let projectsYaml: string;
  let pid: number;

  before(async () => {
    s = makeScratch('projectConfig');
    ({ svc } = frozenDist(s));
    web = makeRepo(s, 'web').dir;
    projectsYaml = path.join(s.svcHome, 'projects.yaml');
    assert.equal((await svc(['daemon', 'status'])).code, 0);
    pid = discoveryOf(s).pid;
  });
  after(async () => disposeAll(s, svc));
  afterEach(() => assert.equal(discoveryOf(s).pid, pid, 'the same daemon throughout: nothing needed a restart'));

  async function refused(args: string[], stderr: string | RegExp): Promise<void> {
    const r = await svc(args);
    assert.equal(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, '');
    if (typeof stderr === 'string') assert.equal(r.stderr, stderr);
    else assert.match(r.stderr, stderr);
  }

  it('list with no projects says how to add one', async () => {
    const r = await svc(['project', 'list']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'no projects (add one with: svc project add <key> <path>)\n');
    const j = await svc(['project', 'list', '--json']);
    assert.equal(j.stdout, '[]\n');
  });

  it("add registers a checkout with origin's HEAD as default branch; list shows it in text and JSON", async () => {
    const r = await svc(['project', 'add', 'web', web]);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `Project web: ${web} (default branch main)\n`);
    assert.equal(fs.statSync(projectsYaml).mode & 0o777, 0o600);
    assert.equal(
      fs.readFileSync(projectsYaml, 'utf8'),
      `projects:\n  web:\n    path: ${web}\n    default_branch: main\n`,
    );

    const list = await svc(['project', 'list']);
    assert.equal(list.stdout, `web\t${web}\tmain\tlocal\n`);
    const j = await svc(['project', 'list', '--json']);
    assert.deepEqual(JSON.parse(j.stdout), [{ key: 'web', path: web, defaultBranch: 'main', codeHost: 'local' }]);
  });

  it('add resolves a relative path against the caller, takes --default-branch, prints --json', async () => {
    const dir = path.join(s.home, 'tools');
    fs.mkdirSync(dir);
    git(dir, s.env, 'init', '--quiet', '--initial-branch=main');
    const r = await svc(['project', 'add', 'tools', './tools', '--default-branch=develop', '--json'], { cwd: s.home });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { key: 'tools', path: dir, defaultBranch: 'develop', codeHost: 'local' });
  });

  it("add detects another default branch from origin's HEAD", async () => {
    const origin = path.join(s.home, 'lib-origin.git');
    const dir = path.join(s.home, 'lib');
    git(s.home, s.env, 'init', '--quiet', '--bare', '--initial-branch=trunk', origin);
    git(s.home, s.env, 'clone', '--quiet', origin, dir);
    git(dir, s.env, 'commit', '--quiet', '--allow-empty', '-m', 'first');
    git(dir, s.env, 'push', '--quiet', 'origin', 'HEAD:trunk');
    git(dir, s.env, 'remote', 'set-head', 'origin', 'trunk');
    const r = await svc(['project', 'add', 'lib', dir]);
    assert.equal(r.stdout, `Project lib: ${dir} (default branch trunk)\n`);
  });

  it('refuses a duplicate key, a bad key, a missing path and a file as path (exit 1, file untouched)', async () => {
    const before = fs.readFileSync(projectsYaml, 'utf8');
    await refused(['project', 'add', 'web', web], `project 'web' already exists at ${web}\n`);
    const badKey =
      'bad params for projects/add: key: a project key is lowercase letters, digits and -, at most 32 characters\n';
    for (const key of ['Web', 'web!', 'a'.repeat(33), 'we b', '']) await refused(['project', 'add', key, web], badKey);
    await refused(['project', 'add', '--', '-web', web], badKey);
    const missing = path.join(s.home, 'does-not-exist');
    await refused(['project', 'add', 'gone', missing], `project path ${missing} is not a folder\n`);
    const file = path.join(web, 'README.md');
    await refused(['project', 'add', 'file', file], `project path ${file} is not a folder\n`);
    assert.equal(fs.readFileSync(projectsYaml, 'utf8'), before);
  });

  it('refuses a folder that is not the top of a git checkout, an invalid default branch, and a checkout already registered (file untouched)', async () => {
    const before = fs.readFileSync(projectsYaml, 'utf8');
    const plain = path.join(s.home, 'plain');
    fs.mkdirSync(plain);
    await refused(
      ['project', 'add', 'plain', plain],
      `project path ${plain} is not a git checkout; run git init (or git clone) there first, or pass the folder of a checkout\n`,
    );
    const sub = path.join(web, 'src');
    fs.mkdirSync(sub);
    await refused(
      ['project', 'add', 'sub', sub],
      `project path ${sub} is inside the git checkout ${web}; add the checkout itself: svc project add sub ${web}\n`,
    );
    const bare = path.join(s.home, 'web-origin.git');
    await refused(
      ['project', 'add', 'bare', bare],
      `project path ${bare} is a bare repository; clone it (git clone ${bare} <folder>) and add the clone\n`,
    );
    const other = makeRepo(s, 'other').dir;
    for (const branch of ['--upload-pack=touch pwned', 'a..b', 'main.lock', 'x y', '-b']) {
      await refused(
        ['project', 'add', 'other', other, `--default-branch=${branch}`],
        `default branch '${branch}' is not a valid git branch name (git check-ref-format); pass --default-branch <name> with the branch lanes start from\n`,
      );
    }
    await refused(
      ['project', 'add', 'web2', web],
      `${web} is already project 'web'; one checkout is one project (svc project list shows them)\n`,
    );
    await refused(
      ['project', 'add', 'web3', web + '/'],
      `${web} is already project 'web'; one checkout is one project (svc project list shows them)\n`,
    );
    const link = path.join(s.home, 'web-link');
    fs.symlinkSync(web, link);
    await refused(
      ['project', 'add', 'web4', link],
      `${link} is already project 'web'; one checkout is one project (svc project list shows them)\n`,
    );
    assert.equal(fs.readFileSync(projectsYaml, 'utf8'), before);
    assert.ok(!fs.existsSync(path.join(s.home, 'pwned')) && !fs.existsSync(path.join(web, 'pwned')));
  });

  it('usage errors: missing arguments, an extra one, an unknown flag (exit 1, one line and where the help is)', async () => {
    await refused(['project', 'add'], /^svc project add: missing <key>\nsee svc project add --help\n$/);
    await refused(['project', 'add', 'x'], /^svc project add: missing <path>\nsee svc project add --help\n$/);
    await refused(
      ['project', 'add', 'x', web, 'extra'],
      /^svc project add: unexpected argument 'extra'\nsee svc project add --help\n$/,
    );
    await refused(
      ['project', 'list', '--colour'],
      /^svc project list: unknown flag --colour\nsee svc project list --help\n$/,
    );
  });

  it('a hand edit to projects.yaml is picked up by the running daemon', async () => {
    const api = path.join(s.home, 'api');
    fs.mkdirSync(api);
    fs.appendFileSync(
      projectsYaml,
      `  api:\n    path: ${api}\n    default_branch: release\n    code_host: github\n    github: {owner: o, repo: r}\n`,
    );
    const r = await svc(['project', 'list', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const api1 = (JSON.parse(r.stdout) as { key: string }[]).find((p) => p.key === 'api');
    assert.deepEqual(api1, { key: 'api', path: api, defaultBranch: 'release', codeHost: 'github' });

    // Same size, same second: the daemon must still see the new bytes.
    const text = fs.readFileSync(projectsYaml, 'utf8');
    fs.writeFileSync(projectsYaml, text.replace('default_branch: release', 'default_branch: rel-2.0'));
    const again = await svc(['project', 'list', '--json']);
    assert.equal(
      (JSON.parse(again.stdout) as { key: string; defaultBranch: string }[]).find((p) => p.key === 'api')
        ?.defaultBranch,
      'rel-2.0',
    );
  });

  it('keeps comments in projects.yaml when adding', async () => {
    const text = fs.readFileSync(projectsYaml, 'utf8');
    fs.writeFileSync(projectsYaml, `# my projects — keep this note\n${text}`);
    const dir = path.join(s.home, 'docs');
    fs.mkdirSync(dir);
    git(dir, s.env, 'init', '--quiet', '--initial-branch=main');
    assert.equal((await svc(['project', 'add', 'docs', dir, '--default-branch', 'main'])).code, 0);
    const after = fs.readFileSync(projectsYaml, 'utf8');
    assert.ok(after.startsWith('# my projects — keep this note\n'), after);
    assert.ok(after.includes(`  docs:\n    path: ${dir}\n    default_branch: main\n`), after);
  });

  it('a bad projects.yaml is refused with an error naming the file and the field; fixing it needs no restart', async () => {
    const good = fs.readFileSync(projectsYaml, 'utf8');
    const cases: [string, string | RegExp][] = [
      [
        'projects:\n  web:\n    path: 5\n',
        `${projectsYaml}: projects.web.path: Invalid input: expected string, received number\n`,
      ],
      [
        `projects:\n  web:\n    path: ${web}\n    colour: red\n`,
        `${projectsYaml}: projects.web: Unrecognized key: "colour"\n`,
      ],
      [
        `projects:\n  web:\n    path: ${web}\n    code_host: gitlab\n`,
        new RegExp(`^${esc(projectsYaml)}: projects\\.web\\.code_host: .*"local".*"github"`),
      ],
      ['projects:\n  Bad_Key:\n    path: /x\n', new RegExp(`^${esc(projectsYaml)}: projects\\.Bad_Key: `)],
      ['projects:\n  web: [\n', new RegExp(`^${esc(projectsYaml)}: .*line 3`)],
      ['project:\n  web:\n    path: /x\n', `${projectsYaml}: (top level): Unrecognized key: "project"\n`],
    ];
    for (const [text, message] of cases) {
      fs.writeFileSync(projectsYaml, text);
      await refused(['project', 'list'], message);
      await refused(['project', 'add', 'more', web], message);
      assert.equal(fs.readFileSync(projectsYaml, 'utf8'), text, 'a refused add leaves the file as it was');
    }
    fs.writeFileSync(projectsYaml, good);
    const r = await svc(['project', 'list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^web\t${esc(web)}\tmain\tlocal\n`));
  });
});

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
