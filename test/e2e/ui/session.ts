// Mocha root hooks of the UI suite (loaded with --require): one code-server and one
// browser for the whole run, a screenshot of any failing test, and timings on stdout.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { REPO } from '../../helpers/scratch';
import { startCodeServer } from './codeServer';
import type { CodeServer } from './codeServer';
import { consoleErrors, launchBrowser, openWorkbench, runCommand, screenshot, SCREENSHOTS } from './workbench';

export interface Session {
  cs: CodeServer;
  browser: Browser;
  /** The workbench window with the .vsix-installed extension and the workspace open. */
  page: Page;
}

let current: Session | undefined;
const started = Date.now();

export function session(): Session {
  if (!current) throw new Error('the e2e session did not start (see the before all hook)');
  return current;
}

export function timing(what: string, since: number): void {
  console.log(`    [timing] ${what}: ${Date.now() - since} ms`);
}

/** The packed .vsix the run installs (SVC_E2E_VSIX, else out/<name>-<version>.vsix). */
export function vsixPath(): string {
  if (process.env.SVC_E2E_VSIX) return path.resolve(process.env.SVC_E2E_VSIX);
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(REPO, 'out', `${pkg.name}-${pkg.version}.vsix`);
}

let failed = false;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    const vsix = vsixPath();
    if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run npm run package (npm run test:e2e does)`);
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    let t = Date.now();
    const cs = await startCodeServer(vsix);
    timing('install vsix + start code-server', t);
    t = Date.now();
    // A failure from here on must still stop code-server (and its daemon), or mocha never exits.
    const browser = await launchBrowser(cs.scratch.home).catch(async (e: unknown) => {
      await cs.stop();
      throw e;
    });
    const page = await openWorkbench(browser, `${cs.url}/?folder=${encodeURIComponent(cs.workspace)}`).catch(
      async (e: unknown) => {
        await browser.close().catch(() => undefined);
        await cs.stop();
        throw e;
      },
    );
    timing('launch chromium + workbench ready', t);
    current = { cs, browser, page };
  },
  async afterEach(this: Mocha.Context) {
    const test = this.currentTest;
    if (test?.state !== 'failed' || !current) return;
    failed = true;
    const name = `failed-${test
      .fullTitle()
      .replace(/[^a-z0-9]+/gi, '-')
      .slice(0, 80)}`;
    await screenshot(current.page, name).catch(() => undefined);
    // What a failed step left open (the palette, a quick pick, a row's menu) would block the next test's clicks.
    const { page } = current;
    for (let i = 0; i < 3; i++) {
      const open = await Promise.all(
        ['.quick-input-widget input.input', '.context-view .monaco-menu'].map((sel) =>
          page
            .locator(sel)
            .isVisible()
            .catch(() => false),
        ),
      );
      if (!open.some((o) => o)) break;
      await page.keyboard.press('Escape').catch(() => undefined);
    }
    // A panel it left (a blank webview) would be reused by the next test's opens. Unsaved
    // drafts are left alone: closing them would ask to save.
    if (
      (await page
        .locator('.tabs-container .tab.dirty')
        .count()
        .catch(() => 1)) === 0
    )
      await runCommand(page, 'View: Close All Editors').catch(() => undefined);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(120_000);
    if (!current) return;
    const { cs, browser } = current;
    current = undefined;
    if (failed) {
      // Keep what explains the failure next to the screenshots (the scratch folder goes away).
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      for (const [from, to] of [
        [cs.log, 'code-server.log'],
        [path.join(cs.scratch.svcHome, 'logs', 'daemon.log'), 'daemon.log'],
      ]) {
        if (fs.existsSync(from)) fs.copyFileSync(from, path.join(SCREENSHOTS, to));
      }
      fs.writeFileSync(path.join(SCREENSHOTS, 'browser-console.log'), consoleErrors.join('\n') + '\n');
    }
    await browser.close().catch(() => undefined);
    await cs.stop();
    timing('whole e2e run', started);
  },
};
