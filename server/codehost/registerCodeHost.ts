// The code host feature: per-project hosts, `pr/*` methods, the GitHub webhook route,
// and head changes broadcast to clients (`pr/headChanged`) for views; the review
// pipeline subscribes in-process through codeHosts(app).onHeadChange.
import { prHeadChanged } from '../../shared/protocol/pr';
import type { App } from '../app';
import { CodeHosts, setCodeHosts } from './codeHosts';
import { handleGithubWebhook } from './github/webhook';
import { registerPrMethods } from './prMethods';
import './migrations';

/** GitHub sends payloads up to 25 MB; pull_request events are far smaller. */
const WEBHOOK_MAX_BODY = 25 * 1024 * 1024;

export function registerCodeHost(app: App): void {
  const hosts = new CodeHosts({ db: app.db, config: app.config, now: () => app.now(), env: process.env });
  setCodeHosts(app, hosts);
  hosts.onHeadChange((change) => {
    app.rpc.broadcast(prHeadChanged, change);
    app.notify({ topic: 'reviews', id: `${change.project}#${change.number}` });
  });
  registerPrMethods(app, hosts);
  app.http.route(
    'POST',
    '/api/webhooks/github',
    (req) =>
      handleGithubWebhook(
        {
          db: app.db,
          secret: () => process.env.GITHUB_WEBHOOK_SECRET || app.config.config().codehost?.github?.webhook_secret,
          hostForRepo: (name) => hosts.githubHostForRepo(name),
          now: () => app.now(),
        },
        req,
      ),
    { auth: 'self', maxBody: WEBHOOK_MAX_BODY },
  );
  // Remotes are watched once the daemon is up; a slow git must not delay the start.
  setImmediate(() => hosts.startWatching());
  app.onStop(() => hosts.close());
}
