// POST /api/webhooks/github: the one HTTP route without the bearer token; it verifies
// itself. In order: a secret must be configured; `X-Hub-Signature-256` must match the
// HMAC-SHA256 of the raw body (constant-time, @octokit/webhooks-methods); the delivery
// id must be new (GitHub signs no timestamp, so a replay is dropped by its
// `X-GitHub-Delivery`, kept in webhook_deliveries); only then is the payload read.
// Refusals are logged and nothing else is done. A replay answers 200 {duplicate: true}
// so GitHub does not mark a redelivery as failed (docs/decisions.md).
import type { Db } from '../../store/db';
import type { HttpRequest, HttpResponse } from '../../http/httpServer';
import { logger } from '../../util/log';
import type { GithubHost, PullRequestPayload } from './githubHost';
import '../migrations';

const log = logger('webhook');

export interface WebhookDeps {
  db: Db;
  /** `codehost.github.webhook_secret` or GITHUB_WEBHOOK_SECRET. */
  secret(): string | undefined;
  /** The GitHub host of the project whose `github: {owner, repo}` is `fullName` (case-insensitive). */
  hostForRepo(fullName: string): GithubHost | undefined;
  now(): number;
}

const refuse = (status: number, reason: string, error: string): HttpResponse => {
  log.warn(`refused (${status} ${reason}): ${error}`);
  return { status, body: { error, reason } };
};

const header = (req: HttpRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export async function handleGithubWebhook(deps: WebhookDeps, req: HttpRequest): Promise<HttpResponse> {
  const secret = deps.secret();
  if (!secret) return refuse(409, 'webhookNotConfigured', 'no webhook secret configured (codehost.github.webhook_secret in config.yaml, or GITHUB_WEBHOOK_SECRET)');
  const signature = header(req, 'x-hub-signature-256');
  if (!signature || !/^sha256=[0-9a-f]{64}$/.test(signature)) return refuse(401, 'badSignature', 'missing or malformed X-Hub-Signature-256');
  const body = req.rawBody.toString('utf8');
  // verify() takes a string: make sure it is byte for byte the body that was signed.
  if (!Buffer.from(body, 'utf8').equals(req.rawBody)) return refuse(400, 'badBody', 'the webhook body is not UTF-8');
  const { verify } = await import('@octokit/webhooks-methods');
  if (body.length === 0 || !(await verify(secret, body, signature))) return refuse(401, 'badSignature', 'X-Hub-Signature-256 does not match the body');

  const delivery = header(req, 'x-github-delivery');
  const event = header(req, 'x-github-event');
  if (!delivery || delivery.length > 100 || !event || event.length > 100) return refuse(400, 'badDelivery', 'missing X-GitHub-Delivery or X-GitHub-Event');
  const first = deps.db
    .prepare(`INSERT OR IGNORE INTO webhook_deliveries (delivery_id, event, received_at, outcome) VALUES (?, ?, ?, 'received')`)
    .run(delivery, event, deps.now()).changes === 1;
  if (!first) {
    log.warn(`replayed delivery ${delivery} (${event}) dropped`);
    return { status: 200, body: { duplicate: true, delivery } };
  }

  let payload: PullRequestPayload;
  try {
    payload = JSON.parse(body) as PullRequestPayload;
  } catch {
    record(deps.db, delivery, undefined, undefined, 'badJson');
    return refuse(400, 'badJson', `delivery ${delivery}: the body is not JSON`);
  }
  const action = typeof payload.action === 'string' ? payload.action : undefined;
  const repo = payload.repository?.full_name;
  let outcome = 'ignored';
  if (event === 'ping') outcome = 'pong';
  else if (event === 'pull_request' && action && repo) {
    try {
      const host = deps.hostForRepo(repo);
      outcome = host ? host.receivePullRequestEvent(action, payload) : 'unknownRepository';
    } catch (e) {
      log.error(`delivery ${delivery}: the code host of ${repo} is unavailable`, e);
      outcome = 'hostUnavailable';
    }
  }
  record(deps.db, delivery, action, repo, outcome);
  log.info(`delivery ${delivery}: ${event}${action ? ` ${action}` : ''}${repo ? ` ${repo}` : ''} → ${outcome}`);
  return { status: 200, body: { ok: true, delivery, event, outcome } };
}

function record(db: Db, delivery: string, action: string | undefined, repo: string | undefined, outcome: string): void {
  db.prepare('UPDATE webhook_deliveries SET action = ?, repo = ?, outcome = ? WHERE delivery_id = ?').run(action ?? null, repo ?? null, outcome, delivery);
}
