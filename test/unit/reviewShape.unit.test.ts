// The shape of review files: the Verdict heading, synthesis sections, the size limit, and
// the daemon's own synthesis from four lane reports (rule 3).
import * as assert from 'node:assert/strict';
import { SvcError } from '../../shared/errors';
import {
  checkPostable,
  headings,
  MAX_REPORT_CHARS,
  normalizedReport,
  parseVerdict,
  QUICK_SECTIONS,
  SYNTHESIS_SECTIONS,
} from '../../server/review/reportShape';
import { combinedVerdict, section, synthesize } from '../../server/review/synthesize';

const SECTIONS = '\n## Summary\nok\n\n## Blockers\nNone.\n\n## Evidence\nread\n\n## Convoy Notes\n- fine\n';

function refusal(fn: () => unknown): SvcError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SvcError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('review file shape', () => {
  it('reads the verdict from the first heading', () => {
    assert.deepEqual(parseVerdict('# Verdict: APPROVED\n', 'x.md'), { ok: true, verdict: 'APPROVED' });
    assert.deepEqual(parseVerdict('\n\n## Verdict: CHANGES_REQUESTED ##\nbody', 'x.md'), {
      ok: true,
      verdict: 'CHANGES_REQUESTED',
    });
    assert.deepEqual(parseVerdict('#   Verdict:FAILED  \n', 'x.md'), { ok: true, verdict: 'FAILED' });
    // Models write the verdict as a plain first line too.
    assert.deepEqual(parseVerdict('Verdict: APPROVED\n', 'x.md'), { ok: true, verdict: 'APPROVED' });
    assert.deepEqual(parseVerdict('\n  verdict:  CHANGES_REQUESTED \n## Summary\n', 'x.md'), {
      ok: true,
      verdict: 'CHANGES_REQUESTED',
    });
    assert.deepEqual(parseVerdict('All good.\nVerdict: APPROVED\n', 'x.md'), {
      ok: false,
      why: "x.md must start with its verdict line; its first line is 'All good.': put `# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED` first",
    });
    assert.deepEqual(parseVerdict('# Verdict: approved\n', 'x.md'), {
      ok: false,
      why: "unknown verdict 'approved' in x.md: change its first line to `# Verdict: APPROVED` (verdicts are written in capitals)",
    });
    assert.deepEqual(parseVerdict('Verdict: changes requested\n', 'x.md'), {
      ok: false,
      why: "unknown verdict 'changes requested' in x.md: change its first line to `# Verdict: CHANGES_REQUESTED` (verdicts are written in capitals)",
    });
    assert.deepEqual(parseVerdict('Verdict: LGTM\n', 'x.md'), {
      ok: false,
      why: "unknown verdict 'LGTM' in x.md: change its first line to `# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED`",
    });
    assert.deepEqual(parseVerdict('  \n', 'x.md'), {
      ok: false,
      why: 'x.md is empty; its first line must be `# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED`',
    });
  });

  it('ignores headings inside fenced blocks', () => {
    assert.deepEqual(headings('# A\n```\n# not a heading\n```\n## B\n~~~md\n## C\n~~~\n'), ['A', 'B']);
  });

  it('accepts a synthesis with the four sections in order, extra sub-headings allowed', () => {
    assert.equal(checkPostable(`# Verdict: APPROVED\n${SECTIONS}`, 'synthesis.md', SYNTHESIS_SECTIONS), 'APPROVED');
    const withSubs =
      '# Verdict: CHANGES_REQUESTED\n## Summary\n## Blockers\n### 1. SQL injection\n## Evidence\n### security\n## Convoy Notes\n';
    assert.equal(checkPostable(withSubs, 'synthesis.md', SYNTHESIS_SECTIONS), 'CHANGES_REQUESTED');
    assert.equal(
      checkPostable('# Verdict: FAILED\n## summary\n## blockers\n## evidence\n', 'review.md', QUICK_SECTIONS),
      'FAILED',
    );
    // A plain verdict line counts as the heading: the first section is not taken for it.
    assert.equal(checkPostable(`Verdict: APPROVED\n${SECTIONS}`, 'synthesis.md', SYNTHESIS_SECTIONS), 'APPROVED');
  });

  it('posts the verdict line as a heading, the rest byte for byte', () => {
    assert.equal(
      normalizedReport('\nVerdict: APPROVED\n\n## Summary\nok\n', 'APPROVED'),
      '# Verdict: APPROVED\n\n## Summary\nok\n',
    );
    assert.equal(normalizedReport('## Verdict:FAILED ##\r\nbody\r\n', 'FAILED'), '# Verdict: FAILED\r\nbody\r\n');
    assert.equal(
      normalizedReport('# Verdict: APPROVED\n## Summary\n', 'APPROVED'),
      '# Verdict: APPROVED\n## Summary\n',
    );
  });

  it('refuses a missing heading, an unknown verdict, missing or misordered sections and oversized files', () => {
    let e = refusal(() => checkPostable(`Looks good\n${SECTIONS}`, 'synthesis.md', SYNTHESIS_SECTIONS));
    assert.equal(e.reason, 'badVerdictHeading');
    e = refusal(() => checkPostable(`# Verdict: SHIP_IT\n${SECTIONS}`, 'synthesis.md', SYNTHESIS_SECTIONS));
    assert.equal(
      e.message,
      "unknown verdict 'SHIP_IT' in synthesis.md: change its first line to `# Verdict: APPROVED`, `# Verdict: CHANGES_REQUESTED` or `# Verdict: FAILED`",
    );
    e = refusal(() =>
      checkPostable('# Verdict: APPROVED\n## Summary\n## Blockers\n## Evidence\n', 'synthesis.md', SYNTHESIS_SECTIONS),
    );
    assert.equal(
      e.message,
      'synthesis.md has no `Convoy Notes` section: add a `## Convoy Notes` heading after the `## Evidence` section (the sections after the verdict line are Summary, Blockers, Evidence, Convoy Notes, in this order)',
    );
    e = refusal(() =>
      checkPostable(
        'Verdict: APPROVED\n## Blockers\n## Evidence\n## Convoy Notes\n',
        'synthesis.md',
        SYNTHESIS_SECTIONS,
      ),
    );
    assert.equal(
      e.message,
      'synthesis.md has no `Summary` section: add a `## Summary` heading right after the verdict line (the sections after the verdict line are Summary, Blockers, Evidence, Convoy Notes, in this order)',
    );
    e = refusal(() =>
      checkPostable(
        '# Verdict: APPROVED\n## Blockers\n## Summary\n## Evidence\n## Convoy Notes\n',
        'synthesis.md',
        SYNTHESIS_SECTIONS,
      ),
    );
    assert.equal(
      e.message,
      'synthesis.md has its `Blockers` section out of order: move it so that the sections after the verdict line are Summary, Blockers, Evidence, Convoy Notes, in this order',
    );
    const big = `# Verdict: APPROVED\n${SECTIONS}${'y'.repeat(MAX_REPORT_CHARS)}`;
    e = refusal(() => checkPostable(big, 'synthesis.md', SYNTHESIS_SECTIONS));
    assert.equal(e.reason, 'reportTooLarge');
    assert.equal(
      e.message,
      `synthesis.md has ${big.length} characters; the limit is 60000 (a PR review body holds 65,536)`,
    );
  });
});

describe('daemon synthesis (rule 3)', () => {
  const lane = (l: 'security' | 'correctness' | 'performance' | 'requirements', v: string, blockers = 'None.') => ({
    lane: l,
    path: `/ws/.svc/review/r1/${l}.md`,
    text: `# Verdict: ${v}\n\n## Summary\n${l} ok\n\n## Blockers\n${blockers}\n\n## Evidence\nsee diff\n`,
  });

  it('takes the strictest verdict', () => {
    assert.equal(combinedVerdict(['APPROVED', 'APPROVED']), 'APPROVED');
    assert.equal(combinedVerdict(['APPROVED', 'FAILED']), 'FAILED');
    assert.equal(combinedVerdict(['FAILED', 'CHANGES_REQUESTED']), 'CHANGES_REQUESTED');
    assert.equal(combinedVerdict(['APPROVED', null]), 'FAILED');
  });

  it('extracts a section up to the next heading of its level', () => {
    assert.equal(
      section('# V\n## Blockers\n1. x\n### detail\nmore\n## Evidence\ne\n', 'Blockers'),
      '1. x\n### detail\nmore',
    );
    assert.equal(section('# V\n', 'Blockers'), undefined);
  });

  it('writes a postable synthesis with the lanes’ blockers and reports', () => {
    const out = synthesize({
      issue: 'WEB-7',
      runId: 'r2',
      sha: 'a'.repeat(40),
      why: 'The review parent agent-web-7-review ended (exit 3)',
      reports: [
        lane('security', 'CHANGES_REQUESTED', '1. SQL injection in db.ts:12'),
        lane('correctness', 'APPROVED'),
        lane('performance', 'APPROVED'),
        lane('requirements', 'APPROVED'),
      ],
    });
    assert.equal(out.verdict, 'CHANGES_REQUESTED');
    assert.equal(checkPostable(out.text, 'synthesis.md', SYNTHESIS_SECTIONS), 'CHANGES_REQUESTED');
    assert.match(
      out.text,
      /^# Verdict: CHANGES_REQUESTED\n\n## Summary\n\nReview r2 of WEB-7 at aaaaaaa\. The review parent agent-web-7-review ended \(exit 3\) before posting/,
    );
    assert.match(out.text, /\n## Blockers\n\n### security\n\n1\. SQL injection in db\.ts:12\n/);
    assert.match(out.text, /\n### security report\n\n### Verdict: CHANGES_REQUESTED\n\n#### Summary\n/);
    assert.match(
      out.text,
      /\n## Convoy Notes\n\n- security: CHANGES_REQUESTED — \/ws\/\.svc\/review\/r1\/security\.md\n- correctness: APPROVED/,
    );
  });

  it('stays under the size limit with huge lane reports', () => {
    const huge = (l: 'security' | 'correctness' | 'performance' | 'requirements') => ({
      ...lane(l, 'APPROVED'),
      text: `# Verdict: APPROVED\n## Summary\n${'z'.repeat(50_000)}\n`,
    });
    const out = synthesize({
      issue: 'WEB-1',
      runId: 'r1',
      sha: 'b'.repeat(40),
      why: 'x',
      reports: [huge('security'), huge('correctness'), huge('performance'), huge('requirements')],
    });
    assert.equal(out.verdict, 'APPROVED');
    assert.ok(out.text.length <= MAX_REPORT_CHARS, `${out.text.length}`);
    assert.equal(checkPostable(out.text, 'synthesis.md', SYNTHESIS_SECTIONS), 'APPROVED');
  });
});
