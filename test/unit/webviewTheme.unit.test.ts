// Webview styles use theme variables only (docs/style.md §10): no literal colours, so
// the pages follow light, dark and high-contrast themes. Scans every style sheet string
// of webview/ and the shared page shell.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Template strings that look like CSS (a rule with a declaration). */
function styleSheets(text: string): string[] {
  return [...text.matchAll(/`([^`]*)`/g)].map((m) => m[1]).filter((s) => /\{[^}]*:[^}]*;[^}]*\}/.test(s));
}

const COLOUR_PROPS =
  /(?:^|[\s;{])((?:background|color|border(?:-left|-right|-top|-bottom)?(?:-color)?|outline(?:-color)?))\s*:\s*([^;}]+)/g;

describe('webview styles use theme variables only', () => {
  const files = [...sources(path.join(ROOT, 'webview')), path.join(ROOT, 'extension', 'webviews', 'pageHtml.ts')];
  const sheets = files.flatMap((f) =>
    styleSheets(fs.readFileSync(f, 'utf8')).map((css) => ({ file: path.relative(ROOT, f), css })),
  );

  it('finds the style sheets of every page', () => {
    const withSheets = new Set(sheets.map((s) => s.file));
    for (const f of [
      'webview/agentsMain.ts',
      'webview/awarenessMain.ts',
      'webview/conversation/styles.ts',
      'extension/webviews/pageHtml.ts',
    ])
      assert.ok(withSheets.has(f), `${f} has no style sheet`);
  });

  it('has no literal colours (hex, rgb, hsl)', () => {
    for (const { file, css } of sheets) assert.doesNotMatch(css, /#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i, file);
  });

  it('takes every colour from a --vscode-* variable (or inherits it)', () => {
    for (const { file, css } of sheets) {
      for (const m of css.matchAll(COLOUR_PROPS)) {
        const value = m[2].trim();
        if (/^(none|0|inherit|transparent|currentColor)$/i.test(value)) continue;
        assert.match(value, /var\(--vscode-/, `${file}: ${m[1]}: ${value}`);
      }
    }
  });
});

describe("svc's own colours reach the pages by the names VS Code gives them", () => {
  it('reads svc.verdict.<tone> as --vscode-svc-verdict\\.<tone>: VS Code turns only the first dot of a colour id into a dash', () => {
    const contributed = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        contributes: { colors: { id: string }[] };
      }
    ).contributes.colors.map((c) => c.id);
    const pageCss = fs.readFileSync(path.join(ROOT, 'webview', 'agentsMain.ts'), 'utf8');
    const used = [...pageCss.matchAll(/var\(--vscode-(svc-[^)]+)\)/g)].map((m) => m[1]);
    assert.ok(used.length >= 3, 'the Agents page uses svc’s verdict colours');
    // As the webview's variables are named (workbench webview theming): 'vscode-' + id.replace('.', '-'), a literal dot escaped in CSS.
    const names = new Set(contributed.map((id) => id.replace('.', '-').replace(/\./g, '\\\\.')));
    for (const u of used)
      assert.ok(names.has(u), `var(--vscode-${u}) names no contributed colour (have: ${[...names].join(', ')})`);
  });
});
