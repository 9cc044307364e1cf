// What the Marketplace shows and what the .vsix holds: package.json names the publisher,
// repository, categories, keywords, icon and gallery banner; LICENSE and CHANGELOG.md
// exist; and .vscodeignore is an allow-list that lets in only what the installed
// extension runs or shows — never tests, scratch folders, sources or caches (`vsce ls`
// lists exactly the allowed files).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown> & {
  icon: string;
  repository: { type: string; url: string };
  galleryBanner: { color: string; theme: string };
  categories: string[];
  keywords: string[];
};

describe('the Marketplace package', () => {
  it('names its publisher, repository, categories, keywords, icon and banner', () => {
    assert.equal(pkg.publisher, 'svc-dev');
    assert.equal(pkg.license, 'MIT');
    assert.match(pkg.repository.url, /^https:\/\/github\.com\/[^/]+\/[^/]+\.git$/);
    assert.ok(pkg.categories.length > 0 && pkg.categories.includes('AI'));
    assert.ok(pkg.keywords.length > 0 && pkg.keywords.length <= 30, 'the Marketplace takes at most 30 keywords');
    assert.match(pkg.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
  });

  it('has a 128×128 PNG icon (the Marketplace takes no SVG icon), a LICENSE and a CHANGELOG', () => {
    const png = fs.readFileSync(path.join(REPO, pkg.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.match(fs.readFileSync(path.join(REPO, 'LICENSE'), 'utf8'), /^MIT License\n/);
    assert.match(
      fs.readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8'),
      new RegExp(`\\n## ${String(pkg.version).replace(/\./g, '\\.')}\\n`),
    );
  });

  it('packs by an allow-list that lets in only what the extension runs or shows', () => {
    const lines = fs
      .readFileSync(path.join(REPO, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'));
    assert.equal(lines[0], '**', 'everything is left out first');
    const allowed = lines.slice(1).map((l) => {
      assert.ok(l.startsWith('!'), `${l}: after **, every line lets something back in`);
      return l.slice(1);
    });
    const fits = (entry: string) =>
      [
        'package.json',
        'README.md',
        'CHANGELOG.md',
        'LICENSE*',
        'bin/svc',
        'bin/git-remote-svc',
        'shared/skills/svc-gauntlet-loop/SKILL.md',
      ].includes(entry) ||
      entry.startsWith('dist/') ||
      entry.startsWith('extension/media/');
    assert.deepEqual(
      allowed.filter((e) => !fits(e)),
      [],
    );
    for (const e of allowed)
      assert.ok(
        !/^(test|\.scratch|\.native|node_modules|server|webview|docs|scripts|bench)(\/|$)|(^|\/)(test|\.scratch|node_modules)(\/|$)|\.ts$|\.map$/.test(
          e,
        ),
        `${e} lets in sources, tests or caches`,
      );
  });
});
