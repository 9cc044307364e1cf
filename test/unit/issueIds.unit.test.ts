// Issue ids: `<PROJECT>-<n>`, upper-case; agent names and branches lower-cased.
import * as assert from 'node:assert/strict';
import { SvcError } from '../../shared/errors';
import { issueBranch, issueId, normaliseIssueId, workAgentName } from '../../server/issues/issueIds';
import { reviewerName } from '../../server/review/paths';

describe('issue ids', () => {
  it('upper-cases the project key, lower-cases names and branches', () => {
    assert.equal(issueId('web', 7), 'WEB-7');
    assert.equal(issueId('my-app', 12), 'MY-APP-12');
    assert.equal(workAgentName('WEB-7'), 'agent-web-7');
    assert.equal(issueBranch('MY-APP-12'), 'issue/my-app-12');
    assert.equal(reviewerName('WEB-7', 'security'), 'agent-web-7-review-security');
    assert.equal(reviewerName('WEB-7', 'parent'), 'agent-web-7-review');
    assert.equal(reviewerName('WEB-7', 'quick'), 'agent-web-7-review');
  });

  it('normalises references and refuses others', () => {
    assert.equal(normaliseIssueId('web-7'), 'WEB-7');
    assert.equal(normaliseIssueId(' MY-APP-012 '), 'MY-APP-12');
    for (const bad of ['web', '7', 'web-', '-7', 'web_7', 'WEB-7; rm -rf']) {
      assert.throws(
        () => normaliseIssueId(bad),
        (e: unknown) =>
          e instanceof SvcError &&
          e.reason === 'badIssueId' &&
          e.message === `'${bad}' is not an issue id (they look like WEB-7)`,
      );
    }
  });
});
