// Every refusal of the code hosts (local and GitHub), their pr/* methods and the GitHub
// webhook, each message made here and nowhere else (docs/style.md §16). Reasons:
// shared/refusals/codehost.ts. The pipeline branches on them (never on text):
// `selfReviewRefused` sends the verdict down the marker-comment path.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { CODEHOST_REFUSALS } from '../../shared/refusals/codehost';
import type { CodehostRefusal } from '../../shared/refusals/codehost';

const { usage, notFound, refused, conflict, internal } = refusalsOf(CODEHOST_REFUSALS);

// ---- Both hosts

/** The host refused APPROVE or REQUEST_CHANGES because the reviewer is the PR's author (GitHub 422). */
export function selfReviewRefusedError(pr: number, login: string, hostMessage: string): SvcError<'selfReviewRefused'> {
  return refused(
    'selfReviewRefused',
    `the code host refused a review of PR #${pr} by its author ${login}: ${hostMessage}`,
  );
}

/** `ref`: the PR's number, or the head branch it was looked up by. */
export function unknownPrError(project: string, ref: number | { branch: string }): SvcError<'unknownPr'> {
  return notFound(
    'unknownPr',
    typeof ref === 'number'
      ? `no PR #${ref} in project ${project}`
      : `no PR for branch '${ref.branch}' in project ${project}`,
  );
}

/** `number`, when the host knows which PR is open. */
export function prExistsError(branch: string, number?: number): SvcError<'prExists'> {
  return conflict(
    'prExists',
    number === undefined
      ? `a PR is already open for branch '${branch}'`
      : `PR #${number} is already open for branch '${branch}'`,
  );
}

export function prNotOpenError(number: number, state: string, what: string): SvcError<'prNotOpen'> {
  return conflict('prNotOpen', `PR #${number} is ${state}; cannot ${what} it`);
}

/** `passSha`: `svc pr review` can be told the commit instead. */
export function headMissingError(branch: string, passSha = false): SvcError<'headMissing'> {
  return conflict('headMissing', `branch '${branch}' is gone from the remote${passSha ? '; pass --sha' : ''}`);
}

export function headMovedError(number: number, head: string): SvcError<'headMoved'> {
  return conflict('headMoved', `the head of PR #${number} moved to ${head.slice(0, 7)}; check readiness again`);
}

export function notReadyError(project: string, number: number, reasons: string[]): SvcError<'notReady'> {
  return refused(
    'notReady',
    `PR ${project}#${number} is not ready to merge:\n${reasons.map((r) => `  - ${r}`).join('\n')}`,
  );
}

export function noProjectsError(): SvcError<'noProjects'> {
  return usage('noProjects', 'no projects (add one with: svc project add <key> <path>)');
}

export function projectRequiredError(keys: string[]): SvcError<'projectRequired'> {
  return usage('projectRequired', `which project? pass --project <key> (one of: ${keys.join(', ')})`);
}

// ---- Input checks both adapters make before anything is posted

export function badShaError(what: string, sha: string): SvcError<'badSha'> {
  return usage('badSha', `${what} '${sha.slice(0, 80)}' is not a full commit sha`);
}

export function bodyTooLongError(what: string, length: number, max: number): SvcError<'bodyTooLong'> {
  return usage('bodyTooLong', `the ${what} body has ${length} characters; the limit is ${max}`);
}

export function badReviewEventError(event: string): SvcError<'badReviewEvent'> {
  return usage('badReviewEvent', `unknown review event '${event}'`);
}

export function reviewBodyRequiredError(event: string): SvcError<'reviewBodyRequired'> {
  return usage('reviewBodyRequired', `a ${event} review needs a body`);
}

export function commentBodyRequiredError(): SvcError<'commentBodyRequired'> {
  return usage('commentBodyRequired', 'a comment needs a body');
}

export function badStatusStateError(state: string): SvcError<'badStatusState'> {
  return usage('badStatusState', `unknown status state '${state}'`);
}

export function badStatusContextError(): SvcError<'badStatusContext'> {
  return usage('badStatusContext', 'a status context is 1 to 255 characters');
}

// ---- Choosing a project's host

export function githubNotConfiguredError(key: string): SvcError<'githubNotConfigured'> {
  return usage(
    'githubNotConfigured',
    `project ${key} has code_host: github but no github: {owner, repo} in projects.yaml`,
  );
}

export function noGithubTokenError(key: string): SvcError<'noGithubToken'> {
  return refused(
    'noGithubToken',
    `project ${key} uses GitHub but no token is set: export GITHUB_TOKEN or set codehost.github.token in config.yaml`,
  );
}

export function noRemoteError(key: string, checkout: string, remote: string): SvcError<'noRemote'> {
  return usage(
    'noRemote',
    `project ${key}: the checkout ${checkout} has no remote '${remote}' (the local code host works over it)`,
  );
}

export function remoteNotLocalError(key: string, remote: string, url: string): SvcError<'remoteNotLocal'> {
  return usage(
    'remoteNotLocal',
    `project ${key}: remote '${remote}' is ${url}, not a bare repository path; set code_host: github in projects.yaml for GitHub`,
  );
}

export function remoteNotBareError(key: string, remote: string, dir: string): SvcError<'remoteNotBare'> {
  return usage('remoteNotBare', `project ${key}: remote '${remote}' (${dir}) is not a bare git repository`);
}

// ---- The local host's bare repository

export function badBranchError(name: string): SvcError<'badBranch'> {
  return usage('badBranch', `'${name}' is not a valid branch name`);
}

export function sameBranchError(base: string): SvcError<'sameBranch'> {
  return usage('sameBranch', `a PR needs a head branch other than its base '${base}'`);
}

export function branchNotPushedError(branch: string, remote: string): SvcError<'branchNotPushed'> {
  return usage('branchNotPushed', `branch '${branch}' is not on the remote ${remote}; push it first`);
}

/** A PR asked for (`remote` named: a usage error) or a merge into (a conflict) a base the remote lacks. */
export function baseMissingError(base: string, remote?: string): SvcError<'baseMissing'> {
  const message = `the base branch '${base}' does not exist on the remote${remote ? ` ${remote}` : ''}`;
  return remote ? usage('baseMissing', message) : conflict('baseMissing', message);
}

export function unknownCommitError(sha: string, remote: string): SvcError<'unknownCommit'> {
  return usage('unknownCommit', `commit ${sha} is not in the remote ${remote}`);
}

export function nothingToMergeError(head: string, base: string): SvcError<'nothingToMerge'> {
  return conflict('nothingToMerge', `${head.slice(0, 7)} is already in '${base}'; nothing to merge`);
}

export function mergeConflictError(base: string, files: string[]): SvcError<'mergeConflict'> {
  return conflict('mergeConflict', `merging into '${base}' conflicts in: ${files.join(', ') || '(see git)'}`);
}

export function baseMovedError(base: string): SvcError<'baseMoved'> {
  return conflict('baseMoved', `'${base}' moved while merging; try again`);
}

// ---- GitHub's answers (classified in github/githubErrors.ts)

export function githubIdentityUnknownError(said: string): SvcError<'githubIdentityUnknown'> {
  return refused(
    'githubIdentityUnknown',
    `GitHub will not tell this token who it is (403 on GET /user: ${said}), as with a GitHub App installation or Actions token; set codehost.github.login in config.yaml to the login it writes as, such as my-app[bot] or github-actions[bot]`,
  );
}

/** `repo`: owner/name, whose settings allow no merge method at all. */
export function noMergeMethodError(repo: string): SvcError<'notMergeable'> {
  return conflict('notMergeable', `${repo} allows no merge method (merge commits, squash and rebase are all off)`);
}

/** `when`: in how long, or after which time, GitHub takes requests again. */
export function githubRateLimitedError(
  what: string,
  status: number,
  detail: string,
  when: string,
): SvcError<'githubRateLimited'> {
  return conflict(
    'githubRateLimited',
    `GitHub's rate limit stopped svc when asked to ${what} (${status} ${detail}); try again ${when}`,
  );
}

export function githubUnreachableError(what: string, why: string): SvcError<'githubUnreachable'> {
  return internal('githubUnreachable', `cannot reach GitHub to ${what}: ${why}`);
}

/** GitHub answered `status` with `detail` when asked to do `what`: its typed error. */
export function githubStatusError(what: string, status: number, detail: string): SvcError<CodehostRefusal> {
  switch (status) {
    case 401:
      return refused(
        'githubAuth',
        `GitHub refused the token when asked to ${what} (401 ${detail}); set GITHUB_TOKEN or codehost.github.token`,
      );
    case 403:
      return refused('githubForbidden', `GitHub forbade it when asked to ${what} (403 ${detail})`);
    case 404:
      return notFound('githubNotFound', `GitHub found nothing when asked to ${what} (404 ${detail})`);
    case 405:
      return conflict('notMergeable', `GitHub will not ${what} (405 ${detail})`);
    case 409:
      return conflict('headMoved', `GitHub refused to ${what}: the head moved (409 ${detail}); check readiness again`);
    case 422:
      if (/pull request already exists/i.test(detail))
        return conflict('prExists', `GitHub refused to ${what}: ${detail}`);
      return usage('githubUnprocessable', `GitHub refused to ${what} (422 ${detail})`);
    default:
      return conflict('githubError', `GitHub answered ${status} when asked to ${what}: ${detail}`);
  }
}

// ---- The GitHub webhook: HTTP answers GitHub reads by status, not SvcErrors

export interface WebhookRefusal {
  status: number;
  reason: CodehostRefusal;
  error: string;
}

export const webhookRefusals = {
  notConfigured: (): WebhookRefusal => ({
    status: 409,
    reason: 'webhookNotConfigured',
    error: 'no webhook secret configured (codehost.github.webhook_secret in config.yaml, or GITHUB_WEBHOOK_SECRET)',
  }),
  malformedSignature: (): WebhookRefusal => ({
    status: 401,
    reason: 'badSignature',
    error: 'missing or malformed X-Hub-Signature-256',
  }),
  badDelivery: (): WebhookRefusal => ({
    status: 400,
    reason: 'badDelivery',
    error: 'missing X-GitHub-Delivery or X-GitHub-Event',
  }),
  badContentType: (type: string): WebhookRefusal => ({
    status: 415,
    reason: 'badContentType',
    error: `content type '${type.slice(0, 100)}' is not accepted; set the webhook's content type to application/json or application/x-www-form-urlencoded`,
  }),
  notUtf8: (): WebhookRefusal => ({ status: 400, reason: 'badBody', error: 'the webhook body is not UTF-8' }),
  signatureMismatch: (): WebhookRefusal => ({
    status: 401,
    reason: 'badSignature',
    error: 'X-Hub-Signature-256 does not match the body',
  }),
  /** The payload is not JSON, or not of the event's shape (webhookPayload.ts says which and where). */
  badPayload: (delivery: string, reason: 'badJson' | 'badPayload', why: string): WebhookRefusal => ({
    status: 400,
    reason,
    error: `delivery ${delivery}: ${why}`,
  }),
  notHandled: (delivery: string, why: string): WebhookRefusal => ({
    status: 503,
    reason: 'notHandled',
    error: `delivery ${delivery} could not be handled (${why}); redeliver it later`,
  }),
};
