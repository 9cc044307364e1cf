// `npm run demo`'s state in a real VS Code: the demo runs into a scratch home
// (SVC_DEMO_HOME), a second code-server opens it, and the Command Deck shows the product's
// signature — the orchestrator over its builders, each critic under the builder it judged,
// the verdicts as badges — not a lone orchestrator; and the demo prints what reap --park saved.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { makeScratch, REPO, run } from '../../helpers/scratch';
import type { Scratch } from '../../helpers/scratch';
import { startCodeServer } from './codeServer';
import type { CodeServer } from './codeServer';
import { session, timing, vsixPath } from './session';
import { NEEDS_YOU_TITLE } from '../../../scripts/demo/needsYou';
import {
  openContainer,
  openWorkbench,
  rowBadge,
  rowByLabel,
  rowIcon,
  screenshot,
  themeColor,
  waitForTree,
} from './workbench';

describe("the demo's state in VS Code: the nesting with verdict badges", function () {
  this.timeout(240_000);
  let scratch: Scratch;
  let cs: CodeServer | undefined;
  let page: Page | undefined;
  let demoOut = '';

  before(async () => {
    scratch = makeScratch('demo-e2e');
    const t = Date.now();
    const r = await run(process.execPath, ['--require', 'tsx/cjs', path.join(REPO, 'scripts', 'demo', 'demo.ts')], {
      env: { ...process.env, SVC_DEMO_HOME: scratch.home },
      cwd: REPO,
      timeoutMs: 200_000,
    });
    demoOut = r.stdout;
    assert.equal(r.code, 0, `the demo failed:\n${r.stdout}\n${r.stderr}`);
    timing('npm run demo into a scratch home', t);
  });
  after(async () => {
    await page?.close().catch(() => undefined);
    if (cs) await cs.stop();
    else await scratch.dispose();
  });

  it('prints the patch reap --park saved and the command that restores it', () => {
    const lines = demoOut.split('\n');
    const at = lines.findIndex((l) => l.includes('reap --park saved it:'));
    assert.ok(at >= 0, demoOut);
    const saved = lines.slice(at + 1, at + 4).map((l) => l.trim());
    assert.match(saved[0], /^reaped conv \d+ \(demo-docs-builder-i1\)$/);
    assert.match(
      saved[1],
      new RegExp(
        `^parked 1 path in ${scratch.svcHome.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/agents/conv-demo-docs-builder-i1/parked-\\d{8}T\\d{6}Z\\.patch$`,
      ),
    );
    assert.match(saved[2], /^restore with: git -C \S+ worktree add \S+ demo\/docs && git -C \S+ apply --index -p2 /);
  });

  it('the Command Deck nests builders under the orchestrator and critics under their builders, with verdict badges', async () => {
    const t = Date.now();
    cs = await startCodeServer(vsixPath(), { scratch, workspace: path.join(scratch.home, 'sample') });
    page = await openWorkbench(session().browser, `${cs.url}/?folder=${encodeURIComponent(cs.workspace)}`);
    await openContainer(page, 'svc');
    await rowByLabel(page, 'Command Deck', 'demo orchestrator').waitFor({ timeout: 60_000 });
    timing('demo state opened in code-server', t);
    // Every row in view (a tree draws only those): a tall window, the deck alone in the side bar.
    await page.setViewportSize({ width: 1400, height: 1600 });
    for (const v of ['Awareness', 'Reviews']) {
      const header = page.locator(`.sidebar .pane-header[aria-label="${v} Section"]`);
      if ((await header.getAttribute('aria-expanded')) === 'true') await header.click({ position: { x: 10, y: 11 } });
    }
    // The nesting: builders under the orchestrator, each critic under the builder it judged;
    // the superseded greet i1 pair reaped and archived out of view, the parked docs builder kept
    // (its parked patch named on its row). The conversation waiting for an answer is pinned at the
    // top; each lane says it reported.
    await waitForTree(page, 'Command Deck', [
      { level: 1, label: NEEDS_YOU_TITLE, description: '#14 · needs-you' },
      { level: 1, label: 'demo orchestrator', description: '#1 · idle' },
      { level: 2, label: 'demo/docs builder i1', description: '#3 · stopped · reported done · reaped · parked patch' },
      { level: 3, label: 'demo/docs critic i1', description: '#5 · idle · reported done · (detached)' },
      { level: 2, label: 'demo/greet builder i2', description: '#6 · idle · reported done · demo/greet-i2 ↑0' },
      { level: 3, label: 'demo/greet critic i2', description: '#7 · idle · reported done · (detached)' },
      { level: 1, label: 'SAMPLE-1: Greet politely', description: '#8 · idle' },
      { level: 2, label: 'SAMPLE-1 review r1', description: 'full · APPROVED' },
      ...['review parent', 'security', 'correctness', 'performance', 'requirements'].map((label, i) => ({
        level: 3,
        label,
        description: `#${9 + i} · stopped`,
      })),
    ]);
    // PASS and APPROVED as a ✓ badge in the passed colour on every judged row; none on the orchestrator.
    const passed = await themeColor(page, 'svc.verdict.pass');
    for (const label of [
      'demo/docs builder i1',
      'demo/docs critic i1',
      'demo/greet builder i2',
      'demo/greet critic i2',
      'SAMPLE-1 review r1',
    ])
      assert.deepEqual(await rowBadge(rowByLabel(page, 'Command Deck', label)), { text: '✓', color: passed }, label);
    assert.equal((await rowBadge(rowByLabel(page, 'Command Deck', 'demo orchestrator'))).text, '');
    for (const label of ['demo/greet builder i2', 'demo/greet critic i2'])
      assert.deepEqual(
        await rowIcon(rowByLabel(page, 'Command Deck', label)),
        { codicon: 'pass', color: passed },
        label,
      );
    await screenshot(page, '60-demo-deck-nesting-verdict-badges');
  });
});
