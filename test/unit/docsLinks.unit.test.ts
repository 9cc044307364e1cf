// The README is short and points into docs/ for the reference, and docs/decisions.md is an
// index of docs/decisions/<area>.md: a moved or renamed page must not leave a link that
// goes nowhere. Every relative link of the README and of docs/ names a file that exists,
// and a #fragment names a heading of that file (GitHub's anchors: lower case, punctuation
// dropped, spaces as hyphens). The README links every reference page and every decisions
// area is linked from the index. Every folder's README names each of its subfolders, and a
// citation of a section in code or docs ("docs/style.md §16", `docs/protocol.md (section
// "pr")`, "docs/spec.md: Launch rules") names a section that exists.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..', '..');
const REFERENCE_PAGES = ['cli', 'configuration', 'hosts', 'github', 'reap-and-faults', 'performance'];
/** The folders whose README is their map: each names every subfolder as `name/`. */
const MAPPED_FOLDERS = ['server', 'extension', 'cli', 'shared', 'webview', 'test', 'scripts'];
/** Where citations live: every source, script, test and document of the repository. */
const CITING = ['server', 'cli', 'shared', 'extension', 'webview', 'scripts', 'test', 'bench', 'docs'];
const CITING_FILES = ['README.md', 'CONTRIBUTING.md', 'eslint.config.mjs'];

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

function headingsOf(file: string): string[] {
  return (withoutFences(fs.readFileSync(file, 'utf8')).match(/^#{1,6} .+$/gm) ?? []).map((h) =>
    h.replace(/^#+ /, '').trim(),
  );
}

function anchorsOf(file: string): Set<string> {
  return new Set(
    headingsOf(file).map((h) =>
      h
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

/** A heading's words as a citation writes them: no backticks, lower case. */
const plain = (s: string) => s.replace(/`/g, '').trim().toLowerCase();

/** Numbered sections: `## 8. The review pipeline` headings and `16. **…**` habits. */
function numbersOf(file: string): Set<string> {
  const text = withoutFences(fs.readFileSync(file, 'utf8'));
  return new Set([...text.matchAll(/^(?:#{1,6} )?(\d+)\. /gm)].map((m) => m[1]));
}

function filesUnder(p: string, keep: (f: string) => boolean): string[] {
  if (!fs.existsSync(p)) return [];
  if (!fs.statSync(p).isDirectory()) return keep(p) ? [p] : [];
  return fs
    .readdirSync(p)
    .filter((e) => e !== 'node_modules' && !e.startsWith('.'))
    .flatMap((e) => filesUnder(path.join(p, e), keep));
}

/**
 * A citation: a document, then `§<n>`, a quoted heading (`(section "H")`, `("H")`, `, "H"`),
 * or headings in words after `:` or `,` starting with a capital ("docs/spec.md: Launch rule 1",
 * "Command Deck, Succession"). A citation in words may end in a rule number.
 */
const CITATION =
  /((?:docs\/)?[a-zA-Z][a-zA-Z/.-]*\.md)(?: §(\d+)|,? \((?:section )?"([^"]+)"\)|, "([^"]+)"|(?:,|:) ([A-Z][^);.:"\n]*))/g;

function citationProblems(file: string): string[] {
  const problems: string[] = [];
  for (const m of fs.readFileSync(file, 'utf8').matchAll(CITATION)) {
    const [whole, doc, number, quotedA, quotedB, words] = m;
    const target = [path.join(REPO, doc), path.join(REPO, 'docs', doc), path.resolve(path.dirname(file), doc)].find(
      (p) => fs.existsSync(p),
    );
    const where = `${path.relative(REPO, file)}: ${whole}`;
    if (!target) {
      problems.push(`${where}: no such document`);
      continue;
    }
    const headings = headingsOf(target).map(plain);
    if (number !== undefined) {
      if (!numbersOf(target).has(number)) problems.push(`${where}: no section ${number}`);
    } else if ((quotedA ?? quotedB) !== undefined) {
      if (!headings.includes(plain(quotedA ?? quotedB))) problems.push(`${where}: no such heading`);
    } else {
      for (const cited of words.split(', ').map((w) => plain(w.replace(/ (rule )?\d+$/, ''))))
        if (!headings.some((h) => h.startsWith(cited))) problems.push(`${where}: no heading "${cited}"`);
    }
  }
  return problems;
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

  it('every folder README names each of its subfolders', () => {
    const unnamed: string[] = [];
    for (const folder of MAPPED_FOLDERS) {
      const readme = fs.readFileSync(path.join(REPO, folder, 'README.md'), 'utf8');
      for (const e of fs.readdirSync(path.join(REPO, folder), { withFileTypes: true }))
        if (e.isDirectory() && !e.name.startsWith('.') && !readme.includes(`${e.name}/`))
          unnamed.push(`${folder}/README.md does not name ${e.name}/`);
    }
    assert.deepEqual(unnamed, []);
  });

  it('every citation of a section names one that exists', () => {
    const citing = [
      ...CITING.flatMap((d) => filesUnder(path.join(REPO, d), (f) => /\.(ts|mjs|sh|md|css)$/.test(f))),
      ...CITING_FILES.map((f) => path.join(REPO, f)),
    ];
    assert.deepEqual(citing.flatMap(citationProblems), []);
  });

  it('the README stays a five-minute read: at most 250 lines', () => {
    const lines = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8').split('\n').length - 1;
    assert.ok(lines <= 250, `README.md has ${lines} lines; move reference material into docs/`);
  });
});
