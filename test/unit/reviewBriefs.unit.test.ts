// The review briefs are Markdown templates bundled as text; here they are read through a
// require hook. Each names the commit, the diff base, the file to write and the verdict format.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { BriefVars } from '../../server/review/briefs';
import type * as Briefs from '../../server/review/briefs';

require.extensions['.md'] = (m, file) => {
  m.exports = fs.readFileSync(file, 'utf8');
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { briefFor, fill } = require('../../server/review/briefs') as typeof Briefs;

const SHA = '1234567890abcdef1234567890abcdef12345678';
const BASE = 'fedcba0987654321fedcba0987654321fedcba09';
const vars = (report: string): BriefVars => ({
  issue: 'WEB-7',
  title: 'Login form',
  issueBody: '## Done when\n- the form validates the e-mail',
  project: 'web',
  pr: 3,
  branch: 'issue/web-7',
  sha: SHA,
  base: BASE,
  baseRef: 'origin/main',
  worktree: '/lanes/issue-web-7-review-r2',
  runId: 'r2',
  report,
  laneReports: { security: '/ws/s.md', correctness: '/ws/c.md', performance: '/ws/p.md', requirements: '/ws/r.md' },
  message: 'look at the session handling',
});

describe('review briefs', () => {
  const concerns = {
    security: [/OWASP/, /Injection/, /XSS/, /Authentication and authorisation/],
    correctness: [/Logic errors/, /Edge cases/, /Type safety/, /Null and undefined handling/],
    performance: [/N\+1 queries/, /Blocking operations/, /Memory leaks/, /Algorithmic complexity/],
    requirements: [
      /acceptance criteria and the coverage of\s+the structured brief/,
      /acceptance criterion/,
      /Cover the structured brief section by section/,
      /the form validates the e-mail/,
    ],
  } as const;

  for (const [lane, patterns] of Object.entries(concerns)) {
    it(`${lane}: its concern, the commit, the diff base, the file and the verdict format`, () => {
      const text = briefFor(lane as keyof typeof concerns, vars(`/ws/.svc/review/r2/${lane}.md`));
      for (const p of patterns) assert.match(text, p);
      assert.ok(text.includes(`The commit under review: \`${SHA}\``));
      assert.ok(text.includes(`git diff ${BASE} ${SHA}`));
      assert.ok(text.includes(`    /ws/.svc/review/r2/${lane}.md\n`));
      assert.ok(text.includes('    # Verdict: APPROVED\n    # Verdict: CHANGES_REQUESTED\n    # Verdict: FAILED\n'));
      assert.ok(text.includes('> look at the session handling'));
      assert.doesNotMatch(text, /\{\{/);
    });
  }

  it('the parent: wait, synthesize the four sections, post', () => {
    const text = briefFor('parent', vars('/ws/.svc/review/r2/synthesis.md'));
    assert.ok(text.includes('Run `svc review wait`'));
    assert.ok(text.includes('  - security: `/ws/s.md`\n  - correctness: `/ws/c.md`'));
    assert.ok(
      text.includes('## Summary') &&
        text.includes('## Blockers') &&
        text.includes('## Evidence') &&
        text.includes('## Convoy Notes'),
    );
    assert.ok(text.includes('Run `svc review post WEB-7 --run r2`'));
    assert.ok(text.includes(`\`${SHA}\``) && text.includes(`\`${BASE}\``));
  });

  it('quick mode: one combined pass into review.md', () => {
    const text = briefFor('quick', vars('/ws/review.md'));
    for (const p of [
      /\*\*Requirements\*\*/,
      /\*\*Correctness\*\*/,
      /\*\*Security\*\*/,
      /\*\*Performance\*\*/,
      /    \/ws\/review\.md\n/,
      /svc review post WEB-7 --run r2/,
    ])
      assert.match(text, p);
  });

  it('an unknown placeholder is a bug', () => {
    assert.throws(() => fill('{{nope}}', {}), /review brief placeholder \{\{nope\}\} has no value/);
  });
});
