// The Roles panel's page (dist/webview/rolesMain.js) in Chromium against a real daemon,
// with a stand-in for the VS Code host that does what extension/roles/rolesPanel.ts does:
// config/roles on ready and on `svc/changed {topic: config}`, config/set for writes (a
// refusal goes back as the field's result), config/models on demand. The panel in a real
// VS Code is covered by the e2e suite once the command is contributed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createMessageConnection, ResponseError, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { configModels, configRoles, configSet } from '../../shared/protocol/config';
import type { ModelChoices, RolesView } from '../../shared/protocol/config';
import { changed } from '../../shared/protocol/daemon';
import type { RolesFromView, RolesState } from '../../shared/webview/rolesMessages';
import { launchBrowser } from '../helpers/browser';
import { ok } from '../helpers/lanes';
import { eventually, git, makeScratch, REPO } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const CONFIG = `# review settings, by hand
roles:
  review:
    mode: quick   # start cheap
`;

/** The host side of the panel, over a raw daemon connection. */
class FakeHost {
  state: RolesState = { type: 'state', daemon: null, view: null, problem: null, models: {}, results: {} };
  constructor(
    private readonly c: MessageConnection,
    private readonly page: Page,
  ) {
    c.onNotification(changed.method, (p: { topic: string }) => void (p.topic === 'config' && this.read()));
  }

  async receive(msg: RolesFromView): Promise<void> {
    if (msg.type === 'ready') return this.read();
    if (msg.type === 'set') {
      try {
        await this.c.sendRequest(configSet.method, { key: msg.key, value: msg.value });
        this.state.results[msg.key] = { ok: true, message: null, at: Date.now() };
      } catch (e) {
        if (!(e instanceof ResponseError)) throw e;
        this.state.results[msg.key] = { ok: false, message: (e.data as { error: string }).error, at: Date.now() };
      }
      return this.read();
    }
    this.state.models[msg.harness] = await this.c.sendRequest<ModelChoices>(configModels.method, {
      harness: msg.harness,
    });
    await this.post();
  }

  async read(): Promise<void> {
    this.state.view = await this.c.sendRequest<RolesView>(configRoles.method, {});
    await this.post();
  }

  private post(): Promise<void> {
    return this.page.evaluate(`window.postMessage(${JSON.stringify(this.state)}, '*')`);
  }
}

describe('config: the Roles panel page', function () {
  this.timeout(120_000);
  let s: Scratch;
  let browser: Browser;
  let page: Page;
  let conn: MessageConnection;
  let socket: net.Socket;
  let configFile: string;
  const posted: RolesFromView[] = [];

  const field = (key: string) => page.locator(`.field[data-key="${key}"]`);
  const sourceOf = async (key: string) => (await field(key).locator('.source').textContent()) ?? '';

  before(async () => {
    s = makeScratch('config-page');
    const dir = path.join(s.home, 'web');
    fs.mkdirSync(dir, { recursive: true });
    git(dir, s.env, 'init', '--quiet', '--initial-branch=main');
    await ok(s.svc(['project', 'add', 'web', dir, '--default-branch', 'main']));
    configFile = path.join(s.svcHome, 'config.yaml');
    fs.writeFileSync(configFile, CONFIG);
    await ok(s.svc(['config', 'set', 'projects.web.gauntlet.roles.builder.harness', 'script']));

    const d = JSON.parse(fs.readFileSync(path.join(s.svcHome, 'server.json'), 'utf8')) as { socketPath: string };
    socket = net.connect(d.socketPath);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    conn = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    conn.listen();

    browser = await launchBrowser(s.home);
    page = await browser.newPage();
    page.on('pageerror', (e) => console.error('page error:', e));
    const host = new FakeHost(conn, page);
    await page.exposeFunction('toHost', (m: RolesFromView) => {
      posted.push(m);
      void host.receive(m);
    });
    await page.setContent('<!DOCTYPE html><html><body><main id="root"></main></body></html>');
    // As a string: functions compiled by tsx carry helpers the page does not have.
    await page.addScriptTag({
      content:
        'window.acquireVsCodeApi = () => ({ postMessage: (m) => window.toHost(m), getState: () => undefined, setState: () => undefined });',
    });
    await page.addScriptTag({ path: path.join(REPO, 'dist', 'webview', 'rolesMain.js') });
    await field('roles.review.mode').waitFor();
  });
  after(async () => {
    await browser?.close();
    conn?.dispose();
    socket?.destroy();
    await s.dispose();
  });

  it('shows every field with its source and what happens while unset', async () => {
    assert.deepEqual(posted[0], { type: 'ready' });
    assert.equal(await sourceOf('roles.review.mode'), 'global · config.yaml');
    assert.equal(
      await field('roles.review.mode').locator('.source').getAttribute('title'),
      `${configFile}\nWhile unset: one agent does a combined review pass (quick is the default)`,
    );
    assert.equal(await field('roles.review.mode').locator('select').inputValue(), 'quick');
    const builderModel = 'projects.web.gauntlet.roles.builder.model';
    assert.equal(
      await sourceOf(builderModel),
      'unset · a builder lane cannot start without a model: set one here, or give it at launch (there is no default model)',
    );
    assert.equal(await field(builderModel).locator('.source').getAttribute('class'), 'source warn');
    // The warning is a small icon in the warning colour; the sentence itself is ordinary muted text.
    assert.equal(await field(builderModel).locator('.source .codicon-warning').count(), 1);
    const colour = (sel: string) =>
      page
        .locator(sel)
        .first()
        .evaluate((el) => getComputedStyle(el).color);
    assert.equal(
      await colour(`.field[data-key="${builderModel}"] .source`),
      await colour('.field[data-key="roles.review.mode"] .source'),
    );
    // Short headings; the files they are saved in are the tooltips.
    assert.deepEqual(await page.locator('h2').allTextContents(), ['Reviewevery project', 'Project webgauntlet roles']);
    assert.deepEqual(await page.locator('h2').evaluateAll((hs) => hs.map((h) => (h as HTMLElement).title)), [
      `Saved in ${configFile}`,
      `${path.join(s.home, 'web')}\nSaved in ${path.join(s.svcHome, 'projects.yaml')}`,
    ]);
    assert.equal(await sourceOf('projects.web.gauntlet.roles.builder.harness'), 'project · projects.yaml');
    assert.equal(await page.locator('table[data-project="web"] tr[data-row]').count(), 5);
    assert.equal(await page.locator('table[data-section="convoy"] tr[data-row]').count(), 4);
  });

  it('writes a choice and a typed model to the file, comments intact', async () => {
    await field('roles.review.mode').locator('select').selectOption('full');
    await eventually(
      async () =>
        (await sourceOf('roles.review.mode')) === 'global · config.yaml' &&
        fs.readFileSync(configFile, 'utf8').includes('mode: full'),
      10_000,
      'mode full',
    );
    // The field says it saved, for a moment, and only that field does.
    await field('roles.review.mode')
      .locator('.saved[role="status"]', { hasText: /^ Saved$/ })
      .waitFor({ timeout: 5000 });
    assert.equal(await page.locator('.saved').count(), 1);
    await field('roles.review.mode').locator('.saved').waitFor({ state: 'detached', timeout: 8000 });
    const box = field('roles.review.sub.security.model').locator('input');
    await box.fill('sec-model');
    await box.press('Enter');
    await eventually(
      async () => (await sourceOf('roles.review.sub.security.model')) === 'global · config.yaml',
      10_000,
      'the security model',
    );
    assert.equal(
      fs.readFileSync(configFile, 'utf8'),
      '# review settings, by hand\nroles:\n  review:\n    mode: full   # start cheap\n    sub:\n      security:\n        model: sec-model\n',
    );
    assert.equal(
      posted.filter((m) => m.type === 'set' && m.key === 'roles.review.sub.security.model').length,
      1,
      'Enter and change are one write',
    );
  });

  it("sets a role's approvals: ask or auto, unset meaning unattended", async () => {
    const key = 'projects.web.gauntlet.roles.critic.permissions';
    const projectsFile = path.join(s.svcHome, 'projects.yaml');
    const whileUnset =
      "critic lanes run unattended (auto): nothing waits for your approval; ask turns the harness's approvals into needs-you requests";
    assert.equal(await sourceOf(key), `unset · ${whileUnset}`);
    await field(key).locator('select').selectOption('ask');
    await eventually(
      async () =>
        (await sourceOf(key)) === 'project · projects.yaml' &&
        /critic:\n\s+permissions: ask/.test(fs.readFileSync(projectsFile, 'utf8')),
      10_000,
      'critic permissions ask',
    );
    assert.equal(
      await field(key).locator('.source').getAttribute('title'),
      `${projectsFile}\nWhile unset: ${whileUnset}`,
    );
  });

  it('shows a refusal next to its field and leaves the file unchanged', async () => {
    const before = fs.readFileSync(configFile);
    const box = field('roles.review.sub.security.model').locator('input');
    await box.fill('');
    await box.press('Enter');
    const refusal = field('roles.review.sub.security.model').locator('.refusal');
    await refusal.waitFor({ timeout: 10_000 });
    assert.equal(
      await refusal.textContent(),
      "cannot set roles.review.sub.security.model to '': a model must not be empty; ~/.svc/config.yaml is unchanged",
    );
    assert.deepEqual(fs.readFileSync(configFile), before);
    // The refused text stays for correcting; Escape brings back the value in effect.
    assert.equal(await box.inputValue(), '');
    await box.press('Escape');
    assert.equal(await box.inputValue(), 'sec-model');
  });

  it("sets a role's spend cap and the run's, checking an amount in the page before anything is written", async () => {
    const projectsFile = path.join(s.svcHome, 'projects.yaml');
    const key = 'projects.web.gauntlet.roles.builder.budget';
    const box = field(key).locator('input');
    const before = fs.readFileSync(projectsFile);
    const sets = () => posted.filter((m) => m.type === 'set' && m.key === key).length;
    await box.fill('ten dollars');
    await box.press('Enter');
    const refusal = field(key).locator('.refusal');
    await refusal.waitFor({ timeout: 10_000 });
    assert.equal(
      await refusal.textContent(),
      `${key} was not changed: 'ten dollars' is not a budget (a budget is an amount of US dollars above 0, like 2.50)`,
    );
    assert.equal(sets(), 0, 'nothing was sent');
    assert.deepEqual(fs.readFileSync(projectsFile), before);
    await box.fill('$2.50');
    await box.press('Enter');
    await eventually(
      async () =>
        (await sourceOf(key)) === 'project · projects.yaml' &&
        /builder:\n(?:\s+\w+: .*\n)*?\s+budget: 2\.5\n/.test(fs.readFileSync(projectsFile, 'utf8')),
      10_000,
      'builder budget 2.5',
    );
    assert.equal(await field(key).locator('.refusal').count(), 0, 'the refusal went with the write');
    const run = field('projects.web.gauntlet.budget').locator('input');
    await run.fill('20');
    await run.press('Enter');
    await eventually(
      async () => /\n {6}budget: 20\n/.test(fs.readFileSync(projectsFile, 'utf8')),
      10_000,
      'run budget 20',
    );
    // An empty box removes the cap.
    await field(key).locator('input').fill('');
    await field(key).locator('input').press('Enter');
    await eventually(
      async () => (await sourceOf(key)).startsWith('unset · builder lanes have no spend cap'),
      10_000,
      'builder budget removed',
    );
  });

  it('follows an edit made outside the panel without a reload', async () => {
    fs.writeFileSync(configFile, fs.readFileSync(configFile, 'utf8').replace('mode: full', 'mode: none'));
    await eventually(
      async () => (await field('roles.review.mode').locator('select').inputValue()) === 'none',
      10_000,
      'the page to show mode none',
    );
  });

  it('offers the harness’s models for a model field, free text still allowed, with a warning when the harness does not offer it', async () => {
    const box = field('projects.web.gauntlet.roles.builder.model').locator('input');
    assert.equal(await box.getAttribute('list'), 'models-script');
    await box.focus();
    await eventually(
      async () => (await page.locator('datalist#models-script option').count()) === 3,
      15_000,
      'the script models',
    );
    assert.deepEqual(
      await page
        .locator('datalist#models-script option')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
      ['script', 'script-fast', 'script-thorough'],
    );
    await box.fill('my-own-model');
    await box.press('Enter');
    await eventually(
      async () => (await sourceOf('projects.web.gauntlet.roles.builder.model')).startsWith('project · '),
      10_000,
      'the builder model',
    );
    const r = await ok(s.svc(['config', 'get', '--show-origin', 'projects.web.gauntlet.roles.builder.model']));
    assert.equal(r.stdout, `project (${path.join(s.svcHome, 'projects.yaml')})\tmy-own-model\n`);
    const warning = field('projects.web.gauntlet.roles.builder.model').locator('.not-offered');
    await warning.waitFor({ timeout: 10_000 });
    assert.equal(
      await warning.textContent(),
      'script does not offer my-own-model (it offers script, script-fast, script-thorough); a lane with it may be refused by the agent',
    );
    // One the harness offers: no warning.
    const again = field('projects.web.gauntlet.roles.builder.model').locator('input');
    await again.fill('script-fast');
    await again.press('Enter');
    await eventually(
      async () =>
        (await ok(s.svc(['config', 'get', 'projects.web.gauntlet.roles.builder.model']))).stdout === 'script-fast\n',
      10_000,
      'script-fast saved',
    );
    await warning.waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('refuses a model with characters no model id has before anything is written, the text kept for correcting', async () => {
    const key = 'projects.web.gauntlet.roles.builder.model';
    const projectsFile = path.join(s.svcHome, 'projects.yaml');
    const before = fs.readFileSync(projectsFile);
    const box = field(key).locator('input');
    await box.fill('bad model!');
    await box.press('Enter');
    const refusal = field(key).locator('.refusal');
    await refusal.waitFor({ timeout: 10_000 });
    assert.equal(
      await refusal.textContent(),
      `cannot set ${key} to 'bad model!': no model id has a space, '!' (a model id is letters, digits and . _ - : / @ + [ ]); nothing was saved`,
    );
    assert.equal(await field(key).locator('.saved').count(), 0, 'no Saved');
    assert.equal(await box.inputValue(), 'bad model!');
    // Nothing reached the daemon: the file is byte for byte the same.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(fs.readFileSync(projectsFile), before);
    await box.press('Escape');
    assert.equal(await box.inputValue(), 'script-fast');
  });

  it("sets a role's sandbox in the Sandbox column: workspace or off, unset meaning the platform's sandbox", async () => {
    const key = 'projects.web.gauntlet.roles.verifier.sandbox';
    const projectsFile = path.join(s.svcHome, 'projects.yaml');
    const whileUnset =
      'verifier lanes run in the workspace sandbox where the platform has one (they can change only their own worktree), unless the harness or the launch says off';
    assert.equal(await page.locator('table[data-project="web"] th').nth(6).textContent(), 'Sandbox');
    assert.equal(await sourceOf(key), `unset · ${whileUnset}`);
    await field(key).locator('select').selectOption('off');
    await eventually(
      async () =>
        (await sourceOf(key)) === 'project · projects.yaml' &&
        /verifier:\n\s+sandbox: off/.test(fs.readFileSync(projectsFile, 'utf8')),
      10_000,
      'verifier sandbox off',
    );
    assert.equal((await ok(s.svc(['config', 'get', key]))).stdout, 'off\n');
    assert.equal(await field(key).locator('select').inputValue(), 'off');
  });

  it("sets a role's host in the Host column: this machine, or a host of config.yaml's hosts:", async () => {
    const key = 'projects.web.gauntlet.roles.builder.host';
    const projectsFile = path.join(s.svcHome, 'projects.yaml');
    const select = field(key).locator('select');
    const options = () =>
      select.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    const whileUnset = 'builder lanes run on this machine, unless the launch names a host';
    assert.deepEqual(
      await page
        .locator('table[data-project="web"] th')
        .allTextContents()
        .then((t) => t.slice(0, 6)),
      ['Gauntlet role', 'Model', 'Effort', 'Harness', 'Approvals', 'Host'],
    );
    assert.deepEqual(await options(), [['', 'this machine']]);
    assert.equal(await sourceOf(key), `unset · ${whileUnset}`);
    // A host added to config.yaml in an editor is offered without a reload.
    fs.appendFileSync(configFile, 'hosts:\n  big:\n    ssh: me@big.example\n    lanes_root: ~/lanes\n');
    await eventually(async () => (await options()).length === 2, 10_000, 'the host select to offer big');
    assert.deepEqual(await options(), [
      ['', 'this machine'],
      ['big', 'big'],
    ]);
    await select.selectOption('big');
    await eventually(async () => (await sourceOf(key)) === 'project · projects.yaml', 10_000, 'the builder host');
    assert.match(fs.readFileSync(projectsFile, 'utf8'), /builder:\n(\s+\w+: .*\n)*\s+host: big\n/);
    assert.equal((await ok(s.svc(['config', 'get', key]))).stdout, 'big\n');
    assert.equal(await select.inputValue(), 'big');
    // "this machine" removes the key.
    await select.selectOption('');
    await eventually(async () => (await sourceOf(key)) === `unset · ${whileUnset}`, 10_000, 'the builder host removed');
    assert.doesNotMatch(fs.readFileSync(projectsFile, 'utf8'), /host:/);
    // A host the list does not offer (a stale page) is refused by the daemon, next to the field.
    const before = fs.readFileSync(projectsFile);
    await select.evaluate((el: HTMLSelectElement) => {
      const o = document.createElement('option');
      o.value = 'nowhere';
      el.append(o);
      el.value = 'nowhere';
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await field(key).locator('.refusal').waitFor({ timeout: 10_000 });
    assert.equal(
      await field(key).locator('.refusal').textContent(),
      `cannot set ${key} to 'nowhere': no host 'nowhere' under hosts: in ~/.svc/config.yaml (configured: big); ~/.svc/projects.yaml is unchanged`,
    );
    assert.deepEqual(fs.readFileSync(projectsFile), before);
  });
});
