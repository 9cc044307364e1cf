// The webhook route under a flood: the daemon's resident memory before and during 60
// concurrent 25 MB unsigned POSTs to /api/webhooks/github, once with no webhook secret
// configured and once with one (the posts carry no signature). The floor is the daemon's
// own RSS before the flood, measured in the same run; the budget is +50 MB, and the
// ratio printed is the growth over that budget (target ≤ 1.0). Also printed: how many
// posts were answered before their body had been sent. Prints; never asserts.
// Run: npm run bench -- webhookFlood (or: npm run build && npx tsx bench/webhookFlood.bench.ts)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeScratch } from '../test/helpers/scratch';
import { flood } from '../test/helpers/webhookPosts';
import { runBench } from './runBench';

const MB = 1024 * 1024;
const POSTS = 60;
const SIZE = 25 * MB;
const BUDGET_MB = 50;

async function once(label: string, config: string | undefined): Promise<void> {
  const s = makeScratch('bench-webhook-flood');
  s.env.GITHUB_WEBHOOK_SECRET = '';
  try {
    if (config !== undefined) {
      fs.mkdirSync(s.svcHome, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), config);
    }
    const up = await s.svc(['daemon', 'status']);
    if (up.code !== 0) throw new Error(`daemon did not start: ${up.stderr}`);
    const t = Date.now();
    const { results, rssBefore, rssPeak } = await flood(s.svcHome, POSTS, SIZE, {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': 'bench',
    });
    const secs = (Date.now() - t) / 1000;
    const grew = (rssPeak - rssBefore) / MB;
    const statuses = [...new Set(results.map((r) => r.status))].join(',');
    const unread = results.filter((r) => r.sentBeforeAnswer < r.declared).length;
    console.log(
      `${POSTS} concurrent ${SIZE / MB} MB unsigned posts, ${label}: daemon RSS ${(rssBefore / MB).toFixed(1)} MB before, ` +
        `${(rssPeak / MB).toFixed(1)} MB peak during (+${grew.toFixed(1)} MB); answered ${statuses} in ${secs.toFixed(2)} s, ` +
        `${unread}/${POSTS} before their body was sent; ratio ${(grew / BUDGET_MB).toFixed(2)} of the +${BUDGET_MB} MB budget ` +
        `(target ≤ 1.0: ${grew <= BUDGET_MB ? 'met' : 'MISSED'})`,
    );
  } finally {
    await s.dispose();
  }
}

async function main(): Promise<void> {
  await once('no secret configured', undefined);
  await once('secret configured', 'codehost:\n  github:\n    webhook_secret: bench-secret\n');
}

runBench(main);
