// POST /api/webhooks/github: the one HTTP route without the bearer token; it verifies
// itself. From the headers alone, before any of the body is read (`webhookBeforeBody`):
// a secret must be configured, `X-Hub-Signature-256`, `X-GitHub-Event` and
// `X-GitHub-Delivery` must be present and well formed, and the content type must be one
// GitHub sends (`application/json`, or its default `application/x-www-form-urlencoded`
// with the JSON in the `payload` field). Then: the signature must be the HMAC-SHA256 of
// the raw body (constant-time, @octokit/webhooks-methods); the payload must have the
// shape the event needs (else 400, nothing recorded); and the delivery id must not be
// one already handled (GitHub signs no timestamp, so a replay is dropped by its
// `X-GitHub-Delivery`, kept in webhook_deliveries), and neither may the signed body (the
// delivery id is not signed: the same body under a new id is a replay too; its SHA-256
// is kept in webhook_bodies). A delivery is recorded in the same
// transaction that handles it, so one that failed is not recorded and GitHub's
// redelivery of it is handled. A replay answers 200 {duplicate: true} so GitHub does not
// mark a redelivery as failed (docs/decisions.md).
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Db } from '../../store/db';
import type { HttpRequest, HttpResponse } from '../../http/httpServer';
import { logger } from '../../util/log';
import { webhookRefusals } from '../codehostRefusals';
import type { WebhookRefusal } from '../codehostRefusals';
import type { GithubHost } from './githubHost';
import { parseWebhookPayload } from './webhookPayload';
import type { IssueCommentPayload, PullRequestPayload, WebhookPayload } from './webhookPayload';

const log = logger('webhook');

export interface WebhookDeps {
  db: Db;
  /** `codehost.github.webhook_secret` or GITHUB_WEBHOOK_SECRET. */
  secret(): string | undefined;
  /** The GitHub host of the project whose `github: {owner, repo}` is `fullName` (case-insensitive). */
  hostForRepo: (fullName: string) => GithubHost | undefined;
  now(): number;
}

/** The events svc acts on; any other is answered `ignored` before its body is read. */
export const HANDLED_EVENTS = new Set(['ping', 'pull_request', 'issue_comment']);

const answer = ({ status, reason, error }: WebhookRefusal): HttpResponse => ({ status, body: { error, reason } });
const refuse = (r: WebhookRefusal): HttpResponse => {
  log.warn(`refused (${r.status} ${r.reason}): ${r.error}`);
  return answer(r);
};

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const FORM = 'application/x-www-form-urlencoded';

function contentType(headers: IncomingHttpHeaders): 'json' | 'form' | undefined {
  const raw = header(headers, 'content-type');
  // No content type at all: read as JSON (what GitHub's JSON setting sends, minus the header).
  if (raw === undefined) return 'json';
  const type = raw.split(';')[0].trim().toLowerCase();
  if (type === 'application/json') return 'json';
  if (type === FORM) return 'form';
  return undefined;
}

/** Everything that can be refused from the headers alone; undefined when the body may be read. */
export function webhookBeforeBody(
  deps: Pick<WebhookDeps, 'secret'>,
  headers: IncomingHttpHeaders,
): HttpResponse | undefined {
  const secret = deps.secret();
  if (!secret) return refuse(webhookRefusals.notConfigured());
  const signature = header(headers, 'x-hub-signature-256');
  if (!signature || !/^sha256=[0-9a-f]{64}$/.test(signature)) return refuse(webhookRefusals.malformedSignature());
  const delivery = header(headers, 'x-github-delivery');
  const event = header(headers, 'x-github-event');
  if (!delivery || delivery.length > 100 || !event || event.length > 100) return refuse(webhookRefusals.badDelivery());
  if (!contentType(headers)) {
    return refuse(webhookRefusals.badContentType(header(headers, 'content-type')!));
  }
  if (!HANDLED_EVENTS.has(event)) {
    log.info(`delivery ${delivery}: ${event} → ignored (not an event svc acts on)`);
    return { status: 200, body: { ok: true, delivery, event, outcome: 'ignored' } };
  }
  return undefined;
}

export async function handleGithubWebhook(deps: WebhookDeps, req: HttpRequest): Promise<HttpResponse> {
  const early = webhookBeforeBody(deps, req.headers);
  if (early) return early;
  const secret = deps.secret()!;
  const signature = header(req.headers, 'x-hub-signature-256')!;
  const delivery = header(req.headers, 'x-github-delivery')!;
  const event = header(req.headers, 'x-github-event')!;
  const body = req.rawBody.toString('utf8');
  // verify() takes a string: make sure it is byte for byte the body that was signed.
  if (!Buffer.from(body, 'utf8').equals(req.rawBody)) return refuse(webhookRefusals.notUtf8());
  const { verify } = await import('@octokit/webhooks-methods');
  if (body.length === 0 || !(await verify(secret, body, signature))) return refuse(webhookRefusals.signatureMismatch());

  const parsed = parseWebhookPayload(event, contentType(req.headers)!, body);
  if (!parsed.ok) return refuse(webhookRefusals.badPayload(delivery, parsed.reason, parsed.error));
  const { payload } = parsed;
  const action = payload.action;
  const repo = payload.repository?.full_name;

  const bodyHash = createHash('sha256').update(req.rawBody).digest('hex');
  // Claim, handle and record in one transaction: a delivery whose handling threw leaves
  // no row, so its redelivery is handled. Handling is synchronous (listeners are told at
  // once), so two copies of one delivery cannot both get past the claim.
  let outcome: string;
  try {
    outcome = deps.db.transaction(() => {
      const first =
        deps.db
          .prepare(
            `INSERT OR IGNORE INTO webhook_deliveries (delivery_id, event, action, repo, received_at, outcome) VALUES (?, ?, ?, ?, ?, 'received')`,
          )
          .run(delivery, event, action ?? null, repo ?? null, deps.now()).changes === 1;
      if (!first) return 'duplicate';
      const newBody =
        deps.db
          .prepare('INSERT OR IGNORE INTO webhook_bodies (body_sha256, delivery_id, received_at) VALUES (?, ?, ?)')
          .run(bodyHash, delivery, deps.now()).changes === 1;
      if (!newBody) {
        deps.db.prepare("UPDATE webhook_deliveries SET outcome = 'duplicate' WHERE delivery_id = ?").run(delivery);
        return 'duplicate';
      }
      const done = handle(deps, event, payload);
      deps.db.prepare('UPDATE webhook_deliveries SET outcome = ? WHERE delivery_id = ?').run(done, delivery);
      return done;
    })();
  } catch (e) {
    log.error(
      `delivery ${delivery}: ${event}${action ? ` ${action}` : ''} could not be handled; not recorded, so a redelivery will be`,
      e,
    );
    return answer(webhookRefusals.notHandled(delivery, (e as Error).message));
  }
  if (outcome === 'duplicate') {
    log.warn(`replayed delivery ${delivery} (${event}) dropped`);
    return { status: 200, body: { duplicate: true, delivery } };
  }
  log.info(`delivery ${delivery}: ${event}${action ? ` ${action}` : ''}${repo ? ` ${repo}` : ''} → ${outcome}`);
  return { status: 200, body: { ok: true, delivery, event, outcome } };
}

/** What the delivery did; throws when the project's host cannot take it (not recorded then). */
function handle(deps: WebhookDeps, event: string, payload: WebhookPayload): string {
  if (event === 'ping') return 'pong';
  const repo = payload.repository?.full_name;
  if (!payload.action || !repo) return 'ignored';
  const host = deps.hostForRepo(repo);
  if (!host) return 'unknownRepository';
  if (event === 'pull_request' && payload.pull_request)
    return host.receivePullRequestEvent(payload.action, payload as PullRequestPayload);
  if (event === 'issue_comment' && payload.issue)
    return host.receiveIssueCommentEvent(payload.action, payload as IssueCommentPayload);
  return 'ignored';
}
