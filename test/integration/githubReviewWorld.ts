// The review pipeline tests' world (reviewWorld.ts) with the project on GitHub: the GitHub
// fake over the world's bare remote (test/helpers/githubFake.ts) with the service's token
// (svc) and a reviewer bot's (svc-bot), the project configured on it, and GitHub's webhooks
// to the daemon, signed with the world's secret. Webhook tests want only their deliveries,
// so the poll is off unless `onGithub` asks for it.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startGithubFake } from '../helpers/githubFake';
import type { GithubFake } from '../helpers/githubFake';
import { reviewWorld } from './reviewWorld';
import type { World } from './reviewWorld';

export const WEBHOOK_SECRET = 'webhook-secret';

export interface GithubReviewWorld {
  w: World;
  fake: GithubFake;
  /** Configures the world on GitHub again: `reviewerBot` writes reviews as svc-bot; `pollS` turns the poll on. */
  onGithub(o?: { reviewerBot?: boolean; pollS?: number }): void;
  /** Delivers a `pull_request` webhook (signed, unless `signature` is given); the daemon's answer. */
  hook(
    delivery: string,
    payload: object,
    signature?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** GitHub's `synchronize` webhook for a push of PR `n` from `before` to `after`; answered 200. */
  synchronize(n: number, branch: string, before: string, after: string, delivery: string): Promise<void>;
  dispose(): Promise<void>;
}

export async function githubReviewWorld(name: string): Promise<GithubReviewWorld> {
  const w = await reviewWorld(name, { mode: 'quick', env: { GITHUB_TOKEN: 'token-svc' } });
  const fake = await startGithubFake({ owner: 'acme', repo: 'web', gitDir: w.origin });
  fake.addUser('token-svc', 'svc');
  fake.addUser('token-bot', 'svc-bot');
  const g: GithubReviewWorld = {
    w,
    fake,
    onGithub: (o = {}) =>
      w.configure({
        mode: 'quick',
        github: {
          apiUrl: fake.url,
          secret: WEBHOOK_SECRET,
          ...(o.pollS !== undefined ? { pollS: o.pollS } : {}),
          ...(o.reviewerBot ? { reviewerToken: 'token-bot' } : {}),
        },
      }),
    async hook(delivery, payload, signature) {
      const d = JSON.parse(fs.readFileSync(path.join(w.s.svcHome, 'server.json'), 'utf8')) as { httpPort: number };
      const body = JSON.stringify(payload);
      const sig = signature ?? `sha256=${crypto.createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
      const res = await fetch(`http://127.0.0.1:${d.httpPort}/api/webhooks/github`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': delivery,
          'x-hub-signature-256': sig,
        },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    async synchronize(n, branch, before, after, delivery) {
      const res = await g.hook(delivery, {
        action: 'synchronize',
        before,
        after,
        repository: { full_name: 'acme/web' },
        pull_request: { number: n, head: { sha: after, ref: branch } },
      });
      assert.equal(res.status, 200);
    },
    async dispose() {
      await w.s.dispose();
      await fake.close();
    },
  };
  g.onGithub();
  return g;
}
