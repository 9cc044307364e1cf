// The README is short and points into docs/ for the reference, and docs/decisions.md is an
// index of docs/decisions/<area>.md: a moved or renamed page must not leave a link that
// goes nowhere. Every relative link of the README and of docs/ names a file that exists,
// and a #fragment names a heading of that file (GitHub's anchors: lower case, punctuation
// dropped, spaces as hyphens). The README links every reference page and every decisions
// area is linked from the index.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const REFERENCE_PAGES = ['cli', 'configuration', 'hosts', 'github', 'reap-and-faults', 'performance'];

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

/** The text outside fenced code blocks: a `# comment` in a YAML sample is no heading. */
function withoutFences(text: string): string {
  return text.replace(/^(```+|~~~+)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text outside code: a link-like string in a code sample is not a link. */
function prose(text: string): string {
  return withoutFences(text).replace(/`[^`\n]*`/g, '');
}

function anchorsOf(file: string): Set<string> {
  const slugs = new Set<string>();
  for (const h of withoutFences(fs.readFileSync(file, 'utf8')).match(/^#{1,6} .+$/gm) ?? []) {
    slugs.add(
      h
        .replace(/^#+ /, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return slugs;
}

function relativeLinks(file: string): string[] {
  const links = [...prose(fs.readFileSync(file, 'utf8')).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]);
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
}

describe('README and docs/ links', () => {
  const files = [path.join(REPO, 'README.md'), ...markdownFiles(path.join(REPO, 'docs'))];

  it('every relative link names a file that exists, and a #fragment a heading in it', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const link of relativeLinks(file)) {
        const [target, fragment] = link.split('#');
        const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
        const where = `${path.relative(REPO, file)} → ${link}`;
        if (!fs.existsSync(resolved)) broken.push(`${where}: no such file`);
        else if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
          broken.push(`${where}: no such heading`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('the README links every reference page of docs/', () => {
    const links = relativeLinks(path.join(REPO, 'README.md'));
    for (const page of REFERENCE_PAGES)
      assert.ok(links.includes(`docs/${page}.md`), `README.md does not link docs/${page}.md`);
  });

  it('docs/decisions.md links every file of docs/decisions/', () => {
    const links = relativeLinks(path.join(REPO, 'docs', 'decisions.md'));
    const areas = fs.readdirSync(path.join(REPO, 'docs', 'decisions')).filter((f) => f.endsWith('.md'));
    assert.ok(areas.length > 0);
    for (const area of areas)
      assert.ok(links.includes(`decisions/${area}`), `docs/decisions.md does not link decisions/${area}`);
  });

  it('the README stays a five-minute read: at most 250 lines', () => {
    const lines = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').length - 1;
    assert.ok(lines <= 250, `README.md has ${lines} lines; move reference material into docs/`);
  });
});
