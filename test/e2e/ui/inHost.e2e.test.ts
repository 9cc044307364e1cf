// Drives the in-host suite (test/e2e/inHost, bundled to out/test/e2e/inHost/ by
// scripts/e2e.mjs): a second workbench window opened with the `payload` parameter
// carrying extensionDevelopmentPath (the checkout) and extensionTestsPath. The exit code
// comes back through window.codeAutomationExit; the per-test results through the JSON
// file named in SVC_E2E_RESULTS (the extension host inherits code-server's environment).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO } from '../../helpers/scratch';
import { session, timing } from './session';
import { screenshot } from './workbench';

export const IN_HOST_ENTRY = path.join(REPO, 'out', 'test', 'e2e', 'inHost', 'index.js');

describe('in-host tests (extension host of code-server 4.100.3)', function () {
  // Generous: on a loaded machine the window alone can take a minute to start.
  this.timeout(300_000);

  it('pass inside the extension host', async () => {
    const { browser, cs } = session();
    assert.ok(fs.existsSync(IN_HOST_ENTRY), `${IN_HOST_ENTRY} is missing: npm run test:e2e bundles it`);
    fs.rmSync(cs.resultsFile, { force: true });
    const remote = (p: string) => `vscode-remote://127.0.0.1:${cs.port}${p}`;
    const payload = JSON.stringify([
      // The installed (.vsix) build, not the checkout: a rebuild of dist/ mid-run must not bring a daemon of another build.
      ['extensionDevelopmentPath', remote(cs.extensionDir)],
      ['extensionTestsPath', remote(IN_HOST_ENTRY)],
    ]);
    const t = Date.now();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let exit: (code: number) => void = () => undefined;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number) => exit(code));
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(cs.workspace)}&payload=${encodeURIComponent(payload)}`, {
      timeout: 120_000,
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error('the in-host suite did not exit within 240 s')), 240_000)),
    );
    const code = await Promise.race([exited, timeout])
      .catch(async (e: Error) => {
        await screenshot(page, 'failed-in-host-timeout').catch(() => undefined);
        throw e;
      })
      .finally(() => clearTimeout(timer));
    timing('in-host suite (window start + tests)', t);
    const results = fs.existsSync(cs.resultsFile)
      ? (JSON.parse(fs.readFileSync(cs.resultsFile, 'utf8')) as {
          passes: string[];
          failures: { title: string; error: string }[];
          durationMs: number;
        })
      : undefined;
    await page.close();
    assert.ok(results, `the in-host suite wrote no results (exit code ${code}); see ${cs.log}`);
    for (const p of results.passes) console.log(`      ✓ [in-host] ${p}`);
    for (const f of results.failures) console.log(`      ✗ [in-host] ${f.title}\n${f.error}`);
    console.log(`    [timing] in-host tests alone: ${results.durationMs} ms`);
    assert.deepEqual(
      results.failures.map((f) => f.title),
      [],
    );
    assert.equal(code, 0);
    assert.equal(results.passes.length, 9);
  });
});
