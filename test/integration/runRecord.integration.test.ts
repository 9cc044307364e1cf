// The run record: a run with a builder and a critic exported as one HTML page that holds
// the chain line, both reports (rendered, sanitised), the defect titles and the builder's
// diff; that shows home paths as ~ and no credentials; and that, opened from its file in
// chromium with the network cut, asks for nothing but itself. `--json` gives the same facts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import type { RunRecord } from '../../shared/protocol/runRecord';
import { launchBrowser } from '../helpers/browser';
import { buildAndReport, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const DEFECTS = { defects: [{ title: 'Greeting lacks a newline' }, { title: 'No test for <empty> names' }] };
const CRITIC_BODY = [
  '## Findings',
  '',
  'Two defects; see the verdict file.',
  '',
  '<script>window.pwned = 1</script>',
  '',
  '![tracker](https://example.com/pixel.png)',
  '',
  'token ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked, and API_KEY=hunter2',
].join('\n');

describe('run record: svc run export', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let browser: Browser | undefined;

  before(async () => {
    s = makeScratch('run-record');
    w = await laneWorld(s);
    const b = writeBrief(w.briefs, 'b.md', [
      { run: buildAndReport('greet.txt', 'hello world', 'Built **greet.txt** as asked.'), check: true },
    ]);
    await startLane(w, { run: 'rec', key: 'greet', role: 'builder', model: 'm', brief: b });
    assert.equal((await s.svc(['lane', 'wait', 'rec-greet-builder-i1', '--timeout', '60'])).code, 0);
    const verdict = path.join(s.home, 'verdict.json');
    fs.writeFileSync(verdict, JSON.stringify(DEFECTS));
    const body = path.join(s.home, 'critic.md');
    fs.writeFileSync(body, CRITIC_BODY);
    const c = writeBrief(w.briefs, 'c.md', [
      // The verdict file goes in the critic's own git dir: svc reads a verdict file nowhere else.
      {
        run: `v="$(git rev-parse --absolute-git-dir)/verdict.json" && cp ${verdict} "$v" && svc lane report --file ${body} --verdict NOT_YET --verdict-file "$v"`,
        check: true,
      },
    ]);
    await startLane(w, { for: 'greet', role: 'critic', run: 'rec', model: 'm', brief: c });
    assert.equal((await s.svc(['lane', 'wait', 'rec-greet-critic-i1', '--timeout', '60'])).code, 0);
  });
  after(async () => {
    await browser?.close();
    await s.dispose();
  });

  it('writes one page holding the chain line, both reports, the defect titles and the builder diff; no home path, no token', async () => {
    const r = await ok(s.svc(['run', 'export', 'rec']));
    const file = path.join(s.home, 'svc-run-proj-rec.html');
    assert.match(
      r.stdout,
      new RegExp(`^Run record of proj/rec written to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ KB\\)\\n$`),
    );
    const html = fs.readFileSync(file, 'utf8');
    assert.ok(html.includes('<code>i1 built → critic c1: NOT_YET (2 defects)</code>'), 'the chain line');
    assert.ok(html.includes('<p>Built <strong>greet.txt</strong> as asked.</p>'), "the builder's report, rendered");
    assert.ok(html.includes('<h2>Findings</h2>'), "the critic's report, rendered");
    assert.ok(
      html.includes('<li>Greeting lacks a newline</li>') && html.includes('<li>No test for &lt;empty&gt; names</li>'),
      'the defect titles, escaped',
    );
    assert.ok(html.includes('<span class="d-add">+hello world</span>'), "the builder's diff");
    assert.ok(html.includes('greet.txt | 1 +'), "the builder's diff stat");
    assert.ok(!/<script/i.test(html), 'no script element: the agent’s <script> is text');
    assert.ok(html.includes('&lt;script&gt;window.pwned = 1&lt;/script&gt;'));
    assert.ok(!html.includes('<img'), 'an image is shown as its address, never loaded');
    assert.ok(!html.includes(s.home), 'no path under the home');
    assert.ok(html.includes('<code>~/proj-lanes/rec-greet</code>'), 'home paths as ~');
    assert.ok(!html.includes('ghp_0123456789') && !html.includes('hunter2'), 'no credentials');
    assert.ok(html.includes('API_KEY=[redacted]'));
  });

  it('--json writes the same facts', async () => {
    await ok(s.svc(['run', 'export', 'rec', '--json', '--out', 'rec.json']));
    const rec = JSON.parse(fs.readFileSync(path.join(s.home, 'rec.json'), 'utf8')) as RunRecord;
    assert.deepEqual(rec.chains, [{ key: 'greet', line: 'i1 built → critic c1: NOT_YET (2 defects)' }]);
    assert.deepEqual(
      rec.lanes.map((l) => [l.name, l.role, l.judged]),
      [
        ['rec-greet-builder-i1', 'builder', null],
        ['rec-greet-critic-i1', 'critic', { key: 'greet', iteration: 1 }],
      ],
    );
    assert.deepEqual(rec.reports.find((x) => x.verdict)?.defectList, [
      'Greeting lacks a newline',
      'No test for <empty> names',
    ]);
    assert.equal(rec.diffs.length, 1);
    assert.match(rec.diffs[0].patch, /^\+hello world$/m);
    assert.deepEqual(
      rec.launchers.map((c) => c.id),
      [w.rootId],
    );
    const refused = await s.svc(['run', 'export', 'nope']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'no lanes in run nope; svc lane runs lists the runs\n');
  });

  it('names a parked patch with the command that restores it', async () => {
    fs.writeFileSync(path.join(`${w.repo}-lanes`, 'rec-greet', 'notes.md'), 'not committed\n');
    await ok(s.svc(['lane', 'reap', 'rec-greet-builder-i1', '--park', '--keep']));
    const rec = JSON.parse((await ok(s.svc(['run', 'export', 'rec', '--json', '--out', '-']))).stdout) as RunRecord;
    assert.equal(rec.parked.length, 1);
    const p = rec.parked[0];
    assert.equal(p.lane, 'rec-greet-builder-i1');
    assert.match(p.file, /^~\/\.svc\/agents\/conv-rec-greet-builder-i1\/parked-\d{8}T\d{6}Z\.patch$/);
    assert.equal(
      p.restoreCommand,
      `git -C ~/proj worktree add ~/proj-lanes/rec-greet rec/greet && git -C ~/proj-lanes/rec-greet apply --index -p2 --whitespace=nowarn ${p.file}`,
    );
    // The diff is still read after the reap: the branch is kept.
    assert.match(rec.diffs[0].patch, /^\+hello world$/m);
    assert.ok(rec.timeline.some((e) => e.kind === 'reap' && e.text === 'rec-greet-builder-i1 reaped'));
  });

  it("says a reaped critic's verdict file went with its folders, and keeps its verdict and count", async () => {
    await ok(s.svc(['lane', 'reap', 'rec-greet-critic-i1']));
    const rec = JSON.parse((await ok(s.svc(['run', 'export', 'rec', '--json', '--out', '-']))).stdout) as RunRecord;
    const judged = rec.reports.find((x) => x.verdict)!;
    assert.equal(judged.defectList, null);
    assert.match(
      judged.defectNote!,
      /^verdict file ~\/proj-lanes\/\S+\/verdict\.json went with the lane's folders when it was reaped: not read at export$/,
    );
    assert.deepEqual(rec.chains, [{ key: 'greet', line: 'i1 built → critic c1: NOT_YET (2 defects)' }]);
  });

  it('opens from its file in chromium with the network cut and requests nothing from elsewhere', async () => {
    const file = path.join(s.home, 'svc-run-proj-rec.html');
    browser = await launchBrowser(s.home);
    const context = await browser.newContext({ offline: true });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (req) => requests.push(req.url()));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${file}`);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(requests, [`file://${file}`]);
    assert.deepEqual(errors, []);
    assert.equal(await page.evaluate('typeof window.pwned'), 'undefined');
    assert.equal(await page.locator('#chains code').first().textContent(), 'i1 built → critic c1: NOT_YET (2 defects)');
    assert.equal((await page.locator('svg.timeline circle').count()) > 3, true);
    await context.close();
  });
});
