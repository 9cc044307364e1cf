import * as assert from 'node:assert/strict';
import { asGithubError, ownPrRefusal } from '../../server/codehost/github/githubErrors';
import { SvcError } from '../../shared/errors';

const gh = (status: number | undefined, data: unknown, message = 'HttpError') =>
  Object.assign(new Error(message), { status, response: { data } });

describe('GitHub errors → typed refusals', () => {
  for (const text of [
    'Can not approve your own pull request',
    'Review Can not approve your own pull request',
    'Cannot approve your own pull request',
    'Review Can not request changes on your own pull request',
    'GitHub Actions is not permitted to approve pull requests.',
  ]) {
    it(`422 "${text}" is selfReviewRefused`, () => {
      const e = ownPrRefusal(gh(422, { message: 'Unprocessable Entity', errors: [text] }), 7, 'svc');
      assert.ok(SvcError.is(e, 'selfReviewRefused'));
      assert.equal(e.message, `the code host refused a review of PR #7 by its author svc: ${text}`);
      assert.equal(e.kind, 'refused');
    });
  }

  it('the text may come as an error object or as the message', () => {
    assert.ok(ownPrRefusal(gh(422, { errors: [{ message: 'Can not approve your own pull request' }] }), 1, 'svc'));
    assert.ok(ownPrRefusal(gh(422, { message: 'Can not approve your own pull request' }), 1, 'svc'));
  });

  it('needs status 422 and the text: neither alone is an own-PR refusal', () => {
    assert.equal(ownPrRefusal(gh(403, { errors: ['Can not approve your own pull request'] }), 1, 'svc'), undefined);
    assert.equal(ownPrRefusal(gh(422, { errors: ['Review body is required'] }), 1, 'svc'), undefined);
    assert.equal(ownPrRefusal(new Error('Can not approve your own pull request'), 1, 'svc'), undefined);
  });

  it('other answers become typed refusals naming what was asked', () => {
    const cases: [unknown, string, string][] = [
      [gh(401, { message: 'Bad credentials' }), 'refused', 'githubAuth'],
      [gh(403, { message: 'Resource not accessible' }), 'refused', 'githubForbidden'],
      [gh(404, { message: 'Not Found' }), 'notFound', 'githubNotFound'],
      [gh(405, { message: 'Pull Request is not mergeable' }), 'conflict', 'notMergeable'],
      [gh(409, { message: 'Head branch was modified.' }), 'conflict', 'headMoved'],
      [
        gh(422, { message: 'Validation Failed', errors: [{ message: 'A pull request already exists for acme:x.' }] }),
        'conflict',
        'prExists',
      ],
      [
        gh(422, {
          message: 'Validation Failed',
          errors: [{ resource: 'PullRequest', field: 'head', code: 'invalid' }],
        }),
        'usage',
        'githubUnprocessable',
      ],
      [gh(502, { message: 'Bad Gateway' }), 'conflict', 'githubError'],
      [new TypeError('fetch failed'), 'internal', 'githubUnreachable'],
    ];
    for (const [e, kind, reason] of cases) {
      const out = asGithubError(e, 'merge PR #3');
      assert.deepEqual([out.kind, out.reason], [kind, reason]);
      assert.match(out.message, /merge PR #3/);
    }
    assert.equal(
      asGithubError(gh(401, { message: 'Bad credentials' }), 'list PRs').message,
      'GitHub refused the token when asked to list PRs (401 Bad credentials); set GITHUB_TOKEN or codehost.github.token',
    );
  });
});
