// svc's webviews in a real VS Code (code-server 4.100.3 in chromium) under the light, dark
// and high-contrast themes: text contrasts with the background, the verdict colours are
// distinct and readable, with a screenshot of each.
import * as assert from 'node:assert/strict';
import { closeEditors } from './cli';
import { apiAndCritic } from './gauntletWorld';
import { session } from './session';
import { quickPick, runCommand, screenshot, webviewFrame } from './workbench';

describe('webviews in light, dark and high-contrast themes', function () {
  this.timeout(90_000);
  const THEMES = [
    { label: 'Dark Modern', kind: 'vscode-dark', dark: true },
    { label: 'Dark High Contrast', kind: 'vscode-high-contrast', dark: true },
    { label: 'Light High Contrast', kind: 'vscode-high-contrast-light', dark: false },
    { label: 'Light Modern', kind: 'vscode-light', dark: false },
  ];

  // A NOT_YET critic, for the verdict pill the Agents page shows.
  before(async () => {
    await apiAndCritic();
  });

  it('follow the theme: text contrasts with the background in each, screenshots of each', async () => {
    const { page } = session();
    await runCommand(page, 'svc: Open Agents Page');
    await webviewFrame(page, 'table.agents');
    try {
      for (const [i, theme] of THEMES.entries()) {
        await runCommand(page, 'Preferences: Color Theme');
        await quickPick(page, theme.label);
        const frame = await webviewFrame(page, `body.${theme.kind} table.agents`);
        // The page's text colour as computed, and the editor background the webview sits on (from its variable).
        const lum = await frame.evaluate(() =>
          [
            getComputedStyle(document.body).color,
            getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-background').trim(),
          ].map((c) => {
            const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(
              c.length === 4 ? `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}` : c,
            );
            const [r, g, b] = hex
              ? hex.slice(1, 4).map((h) => parseInt(h, 16))
              : (c.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
          }),
        );
        assert.equal(lum[0] > 0.5, theme.dark, `${theme.label}: text luminance ${lum[0]}`);
        assert.ok(Math.abs(lum[0] - lum[1]) > 0.4, `${theme.label}: text ${lum[0]} on background ${lum[1]}`);
        // svc's verdict colours: three distinct colours, each readable on the background (WCAG text contrast 4.5:1),
        // and the verdict pills use them (PASS and NOT_YET once shared one grey).
        // As a string: the test runner's transform would name the helper functions with a __name the page lacks.
        const verdicts = await frame.evaluate<{
          out: Record<string, { color: string; contrast: number }>;
          pill: string | null;
        }>(`(() => {
          const css = getComputedStyle(document.documentElement);
          const rgb = (c) => {
            const probe = document.createElement('span');
            probe.style.color = c;
            document.body.append(probe);
            const v = (getComputedStyle(probe).color.match(/\\d+(\\.\\d+)?/g) || []).slice(0, 3).map(Number);
            probe.remove();
            return v;
          };
          const lin = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : Math.pow((v / 255 + 0.055) / 1.055, 2.4));
          const lumOf = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
          const bg = lumOf(rgb(css.getPropertyValue('--vscode-editor-background').trim()));
          const out = {};
          for (const tone of ['pass', 'notYet', 'fail']) {
            const c = rgb('var(--vscode-svc-verdict\\\\.' + tone + ')');
            const l = lumOf(c);
            out[tone] = { color: c.join(','), contrast: (Math.max(l, bg) + 0.05) / (Math.min(l, bg) + 0.05) };
          }
          const pill = document.querySelector('.verdict.notYet');
          return { out, pill: pill ? getComputedStyle(pill).color.match(/\\d+/g).slice(0, 3).join(',') : null };
        })()`);
        assert.equal(
          new Set(Object.values(verdicts.out).map((v) => v.color)).size,
          3,
          `${theme.label}: ${JSON.stringify(verdicts.out)}`,
        );
        for (const [tone, v] of Object.entries(verdicts.out))
          assert.ok(v.contrast >= 4.5, `${theme.label}: ${tone} ${v.color} has contrast ${v.contrast.toFixed(2)}`);
        assert.equal(
          verdicts.pill,
          verdicts.out.notYet.color,
          `${theme.label}: the NOT_YET pill is in the NOT_YET colour`,
        );
        await screenshot(page, `2${i}-agents-${theme.kind}`);
      }
    } finally {
      await closeEditors();
    }
  });
});
