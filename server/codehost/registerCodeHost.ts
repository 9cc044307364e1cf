// The code host feature: per-project hosts, `pr/*` methods, the GitHub webhook route,
// and head changes broadcast to clients (`pr/headChanged`) for views; the review
// pipeline subscribes in-process through the CodeHosts this returns (onHeadChange).
import { prHeadChanged } from '../../shared/protocol/pr';
import type { App } from '../app';
import { CodeHosts } from './codeHosts';
import { handleGithubWebhook, webhookBeforeBody } from './github/webhook';
import { registerPrMethods } from './prMethods';

/** GitHub sends payloads up to 25 MB, but the events svc reads (pull_request,
 *  issue_comment) carry at most a 64 KiB PR or comment body: a few hundred KiB even
 *  form-encoded. Together with the slots below this bounds what a flood can make the
 *  daemon hold to 16 MiB, whatever it sends. */
const WEBHOOK_MAX_BODY = 4 * 1024 * 1024;
/** Webhook bodies read at once; more are answered 503 with Retry-After at once. */
const WEBHOOK_BODY_SLOTS = 4;

export function registerCodeHost(app: App): CodeHosts {
  const hosts = new CodeHosts({ db: app.db, config: app.config, now: () => app.now(), env: process.env });
  hosts.onHeadChange((change) => {
    app.rpc.broadcast(prHeadChanged, change);
    app.notify({ topic: 'reviews', id: `${change.project}#${change.number}` });
  });
  hosts.onPrActivity((pr) => app.notify({ topic: 'reviews', id: `${pr.project}#${pr.number}` }));
  registerPrMethods(app, hosts);
  const webhook = {
    db: app.db,
    secret: () => process.env.GITHUB_WEBHOOK_SECRET || app.config.config().codehost?.github?.webhook_secret,
    hostForRepo: (name: string) => hosts.githubHostForRepo(name),
    now: () => app.now(),
  };
  app.http.route('POST', '/api/webhooks/github', (req) => handleGithubWebhook(webhook, req), {
    auth: 'self',
    maxBody: WEBHOOK_MAX_BODY,
    maxConcurrentBodies: WEBHOOK_BODY_SLOTS,
    beforeBody: (head) => webhookBeforeBody(webhook, head.headers),
  });
  // Remotes are watched once the daemon is up; a slow git must not delay the start.
  setImmediate(() => hosts.startWatching());
  app.onStop(() => hosts.close());
  return hosts;
}
