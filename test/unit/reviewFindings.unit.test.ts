// Findings as data (server/review/findings.ts): the heading format, each malformed
// heading reported, the identity that survives a moved line, verification at the head and
// the status against the last reviewed run.
import * as assert from 'node:assert/strict';
import {
  findingId,
  findingsNotes,
  inDiff,
  parseDiffHunks,
  parseFindings,
  trackFindings,
  verifyFindings,
} from '../../server/review/findings';

const report = (findings: string) =>
  `# Verdict: CHANGES_REQUESTED\n\n## Summary\nx\n\n## Blockers\n1. y\n\n## Findings\n\n${findings}\n\n## Evidence\nz\n`;

describe('review findings: parsing', () => {
  it('reads severity, path, line or range, title and body', () => {
    const { findings, problems } = parseFindings(
      report(
        '### [blocker] src/a.ts:3 — null dereference\nThe value may be undefined.\n\n### [nit] ./b.md:2-4 -- wording\nShorter.',
      ),
      'correctness',
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(findings, [
      {
        severity: 'blocker',
        path: 'src/a.ts',
        line: 3,
        endLine: 3,
        title: 'null dereference',
        body: 'The value may be undefined.',
        from: 'correctness',
      },
      { severity: 'nit', path: 'b.md', line: 2, endLine: 4, title: 'wording', body: 'Shorter.', from: 'correctness' },
    ]);
  });

  it('reports each malformed heading with what to write instead, never drops it silently', () => {
    const { findings, problems } = parseFindings(
      report(
        'stray text\n\n### [urgent] a.ts:1 — x\n\n### a.ts:1 no severity\n\n### [nit] a.ts:5-2 — backwards\n\n### [should-fix] a.ts:1 — fine',
      ),
      'security',
    );
    assert.deepEqual(
      findings.map((f) => f.title),
      ['fine'],
    );
    assert.deepEqual(problems, [
      { from: 'security', heading: 'stray text', why: 'text before the first `### [severity] path:line — title`' },
      {
        from: 'security',
        heading: '[urgent] a.ts:1 — x',
        why: "unknown severity 'urgent': use blocker, should-fix or nit",
      },
      {
        from: 'security',
        heading: 'a.ts:1 no severity',
        why: 'a finding heading is `### [blocker|should-fix|nit] path:line — title` (or path:start-end)',
      },
      { from: 'security', heading: '[nit] a.ts:5-2 — backwards', why: 'the line range 5-2 is not start ≤ end, from 1' },
    ]);
  });

  it('a report without the section, or with None., has no findings and no problems', () => {
    assert.deepEqual(parseFindings('# Verdict: APPROVED\n\n## Summary\nok\n', 'x'), { findings: [], problems: [] });
    assert.deepEqual(parseFindings(report('None.'), 'x'), { findings: [], problems: [] });
  });
});

describe('review findings: identity and verification', () => {
  const file = (lines: string[]) => lines.join('\n') + '\n';
  const one = (text: string) => parseFindings(report(`### [blocker] a.ts:${text}`), 'correctness').findings;

  it('a moved line keeps its identity; changed code or another title does not', () => {
    const before = verifyFindings(one('2 — bad call'), () => file(['a', 'call(x)', 'b'])).kept[0];
    const moved = verifyFindings(one('4 — bad call'), () => file(['new', 'lines', 'a', '  call(x) ', 'b'])).kept[0];
    const changed = verifyFindings(one('2 — bad call'), () => file(['a', 'call(y)', 'b'])).kept[0];
    const retitled = verifyFindings(one('2 — another'), () => file(['a', 'call(x)', 'b'])).kept[0];
    assert.match(before.id, /^f-[0-9a-f]{10}$/);
    assert.equal(moved.id, before.id);
    assert.notEqual(changed.id, before.id);
    assert.notEqual(retitled.id, before.id);
    assert.equal(before.id, findingId('a.ts', ['call(x)'], 'Bad call'));
  });

  it('drops a finding whose file or line is not at the head, saying why', () => {
    const written = parseFindings(
      report('### [nit] gone.ts:1 — x\n\n### [nit] a.ts:9 — y\n\n### [nit] a.ts:2-5 — z\n\n### [nit] ../up.ts:1 — w'),
      'performance',
    ).findings;
    const r = verifyFindings(written, (p) => (p === 'a.ts' ? file(['1', '2', '3']) : null));
    assert.deepEqual(r.kept, []);
    assert.deepEqual(
      r.dropped.map((d) => d.why),
      [
        'gone.ts does not exist at the reviewed head',
        'a.ts has 3 lines at the reviewed head, not line 9',
        'a.ts has 3 lines at the reviewed head, not lines 2-5',
        '../up.ts is not a path inside the repository',
      ],
    );
  });

  it('two lanes citing the same problem make one finding, of the stricter severity', () => {
    const a = parseFindings(report('### [nit] a.ts:1 — same'), 'security').findings;
    const b = parseFindings(report('### [blocker] a.ts:1 — same'), 'correctness').findings;
    const r = verifyFindings([...a, ...b], () => 'x\n');
    assert.equal(r.kept.length, 1);
    assert.equal(r.kept[0].severity, 'blocker');
  });
});

/** A finding on a.ts:1 whose title is its id. */
const f = (id: string) => ({
  id,
  severity: 'nit' as const,
  path: 'a.ts',
  line: 1,
  endLine: 1,
  title: id,
  body: '',
  from: 'security',
});

describe('review findings: new, still open, fixed since', () => {
  it('over three commits: new, then still open and not posted again, then fixed', () => {
    const r1 = trackFindings([f('f-1'), f('f-2')], [], new Set(), new Set());
    assert.deepEqual(
      r1.map((t) => [t.finding.id, t.status, t.post]),
      [
        ['f-1', 'new', true],
        ['f-2', 'new', true],
      ],
    );
    const r2 = trackFindings([f('f-1'), f('f-2'), f('f-3')], [f('f-1'), f('f-2')], new Set(), new Set(['f-1', 'f-2']));
    assert.deepEqual(
      r2.map((t) => [t.finding.id, t.status, t.post]),
      [
        ['f-1', 'open', false],
        ['f-2', 'open', false],
        ['f-3', 'new', true],
      ],
    );
    const r3 = trackFindings([f('f-3')], [f('f-1'), f('f-2'), f('f-3')], new Set(), new Set(['f-1', 'f-2', 'f-3']));
    assert.deepEqual(
      r3.map((t) => [t.finding.id, t.status, t.post]),
      [
        ['f-3', 'open', false],
        ['f-1', 'fixed', false],
        ['f-2', 'fixed', false],
      ],
    );
  });

  it('a dismissed finding is listed, never posted', () => {
    const [t] = trackFindings([f('f-9')], [], new Set(['f-9']), new Set());
    assert.deepEqual([t.status, t.dismissed, t.post], ['new', true, false]);
  });

  it('the notes name each status, the dropped and the malformed', () => {
    const tracked = trackFindings([f('f-1')], [f('f-2')], new Set(), new Set());
    const text = findingsNotes({
      tracked,
      dropped: [{ finding: f('x'), why: 'a.ts has 3 lines at the reviewed head, not line 9' }],
      problems: [{ from: 'security', heading: 'bad', why: 'why' }],
      since: { runId: 'r1', sha: 'abcdef1234567' },
    });
    assert.equal(
      text,
      [
        '### Findings',
        '',
        'Compared with review r1 at abcdef1.',
        '',
        '- f-1 new (on its line): [nit] a.ts:1 — f-1',
        '- f-2 fixed since: [nit] a.ts:1 — f-2',
        '',
        '### Dropped findings',
        '',
        '- security: [nit] a.ts:1 — x: a.ts has 3 lines at the reviewed head, not line 9',
        '',
        '### Malformed findings',
        '',
        '- security: `bad`: why',
      ].join('\n'),
    );
  });
});

describe('review findings: on the lines of the diff only', () => {
  const diff = [
    'diff --git a/a.ts b/a.ts',
    '--- a/a.ts',
    '+++ b/a.ts',
    '@@ -1,3 +1,4 @@',
    ' one',
    '+two',
    ' three',
    ' four',
    '@@ -20 +21,2 @@ function x()',
    '-old',
    '+new',
    '+newer',
    'diff --git a/gone.ts b/gone.ts',
    '--- a/gone.ts',
    '+++ /dev/null',
    '@@ -1,2 +0,0 @@',
    '-a',
    '-b',
    'diff --git a/new.md b/new.md',
    '--- /dev/null',
    '+++ b/new.md',
    '@@ -0,0 +1 @@',
    '+hello',
  ].join('\n');

  it("reads each file's new-side hunks, context lines included", () => {
    assert.deepEqual(
      [...parseDiffHunks(diff)],
      [
        [
          'a.ts',
          [
            { start: 1, end: 4 },
            { start: 21, end: 22 },
          ],
        ],
        ['new.md', [{ start: 1, end: 1 }]],
      ],
    );
  });

  it('a finding goes on its line when all its lines are in one hunk', () => {
    const hunks = parseDiffHunks(diff);
    const at = (path: string, line: number, endLine = line) => inDiff({ path, line, endLine }, hunks);
    assert.deepEqual(
      [
        at('a.ts', 1),
        at('a.ts', 4),
        at('a.ts', 5),
        at('a.ts', 21, 22),
        at('a.ts', 4, 21),
        at('new.md', 1),
        at('b.ts', 1),
      ],
      [true, true, false, true, false, true, false],
    );
  });

  it('the notes say a finding outside the diff is listed there only', () => {
    const [t] = trackFindings([f('f-1')], [], new Set(), new Set());
    const text = findingsNotes({
      tracked: [{ ...t, post: false, offDiff: true }],
      dropped: [],
      problems: [],
      since: null,
    });
    assert.match(text, /\n- f-1 new \(outside the diff: listed here only\): \[nit\] a\.ts:1 — f-1$/);
  });
});
