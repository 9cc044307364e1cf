// `svc conv list` as the Command Deck tree with successors (`svc handoff`, `svc fork`,
// also from inside an agent), archive, and GET /api/agents/:name/output.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { eventually } from '../helpers/scratch';
import { convScratch, discovery, script } from './convSupport';
import type { ConvScratch } from './convSupport';

function get(port: number, urlPath: string, token?: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: urlPath, headers: token ? { Authorization: `Bearer ${token}` } : {} },
      (res) => {
        let data = '';
        res.on('data', (d: Buffer) => (data += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) }));
      },
    );
    req.on('error', reject);
  });
}

describe('conversation tree, successors, archive and the output route', function () {
  this.timeout(60_000);
  let s: ConvScratch;

  before(async () => {
    s = await convScratch('conv-tree');
  });
  after(async () => s?.dispose());

  it('prints roots with successors nested under their source, showing continues ← #id', async () => {
    await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm1',
      '--title',
      'alpha',
      '--prompt',
      script('- say: alpha says hi'),
    ]);
    // beta hands itself off from inside its agent: svc on PATH, $SVC_CONVERSATION names the source.
    await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm2',
      '--title',
      'beta',
      '--prompt',
      script('- run: svc handoff --title "beta next" --prompt "hello from beta" --no-wait'),
    ]);
    await eventually(async () => (await s.svc(['conv', 'show', 'beta-h1'])).code === 0, 15_000, 'beta-h1');
    assert.equal(
      await s.ok(['handoff', 'alpha', '--title', 'alpha next', '--prompt', 'carry on']),
      `Conversation #4 (alpha-h1) in ${s.proj}\n`,
    );
    assert.equal(await s.ok(['fork', '#1']), `Conversation #5 (alpha-f1) in ${s.proj}\n`);
    assert.equal(
      await s.ok(['handoff', 'conv-alpha-h1', '--model', 'm3']),
      `Conversation #6 (alpha-h2) in ${s.proj}\n`,
    );
    for (const id of [1, 2, 3, 4, 5, 6]) await s.waitActivity(id, 'idle');
    assert.equal(
      await s.ok(['conv', 'list']),
      [
        '#1 alpha  idle  script/m1  alpha',
        '  #4 alpha-h1  idle  script/m1  continues ← #1  alpha next',
        '    #6 alpha-h2  idle  script/m3  continues ← #4  alpha next (handoff 2)',
        '  #5 alpha-f1  idle  script/m1  continues ← #1  alpha (fork 1)',
        '#2 beta  idle  script/m2  beta',
        '  #3 beta-h1  idle  script/m2  continues ← #2  beta next',
        '',
      ].join('\n'),
    );
    const succ = await s.show('beta-h1');
    assert.deepEqual([succ.kind, succ.parentId, succ.cwd], ['successor', 2, s.proj]);
    assert.match(
      await s.log('beta-h1'),
      /> This conversation continues #2 \(beta\) by handoff\. .*\n> \n> hello from beta\n/,
    );
    assert.match(
      await s.log('alpha-f1'),
      /> This conversation is a fork of #1 \(alpha\)\. Its recent output:\n[\s\S]*> alpha says hi\n/,
    );
  });

  it('archive refuses a running conversation, hides a stopped one, and list --all shows it', async () => {
    const r = await s.svc(['conv', 'archive', 'beta']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'conversation #2 (beta) is still running; stop it first (svc conv stop #2)\n');
    await s.ok(['conv', 'stop', 'beta']);
    assert.equal(await s.ok(['conv', 'archive', 'beta']), 'Archived #2 (beta)\n');
    const list = await s.ok(['conv', 'list']);
    assert.doesNotMatch(list, /#2 beta/);
    assert.match(list, /^#3 beta-h1 {2}idle/m);
    assert.match(
      await s.ok(['conv', 'list', '--all']),
      /^#2 beta {2}stopped \(archived\) {2}script\/m2 {2}beta\n {2}#3 beta-h1/m,
    );
    const st = JSON.parse(await s.ok(['status', '--json'])) as { id: number }[];
    assert.ok(!st.some((a) => a.id === 2));
    assert.equal(await s.ok(['conv', 'unarchive', '2']), 'Unarchived #2 (beta)\n');
  });

  it('svc conv log --follow prints output as it comes and returns when the agent stops', async () => {
    await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm1',
      '--title',
      'follow me',
      '--prompt',
      script('- say: one', '- sleep: 1500', '- say: two', '- exit: 0'),
    ]);
    const r = await s.svc(['conv', 'log', 'follow-me', '--lines', '1', '--follow'], { timeoutMs: 20_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^one\n(?:[\s\S]*\n)?two\n\[svc\] agent ended \(exit 0\)\n$/);
    assert.equal(await s.activity('follow-me'), 'stopped');
  });

  it('GET /api/agents/:name/output returns the last lines, tool output included', async () => {
    await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm1',
      '--title',
      'out',
      '--prompt',
      script('- run: printf "one\\ntwo\\nthree\\n"', '- say: done'),
    ]);
    await s.waitActivity('out', 'idle');
    const { httpPort, token } = discovery(s);
    const ok = await eventually(async () => {
      const r = await get(httpPort, '/api/agents/out/output?lines=4', token);
      return (r.body as { lines: string[] }).lines.includes('done') ? r : undefined;
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body, { id: 8, name: 'out', activity: 'idle', lines: ['one', 'two', 'three', 'done'] });
    assert.equal((await get(httpPort, '/api/agents/conv-out/output?lines=1', token)).status, 200);
    assert.equal((await get(httpPort, '/api/agents/out/output?lines=2')).status, 401);
    assert.deepEqual(await get(httpPort, '/api/agents/nobody/output?lines=2', token), {
      status: 404,
      body: {
        error: "no conversation 'nobody' (give #id, id, name or conv-<name>; see svc conv list)",
        reason: 'unknownConversation',
      },
    });
    assert.equal((await get(httpPort, '/api/agents/out/output?lines=zero', token)).status, 400);
  });

  it("svc conv new in a project's folder (no --project) starts there, in that project; elsewhere in no project", async () => {
    const sub = path.join(s.proj, 'src');
    fs.mkdirSync(sub, { recursive: true });
    const inside = JSON.parse(
      await s.ok(
        [
          'conv',
          'new',
          '--harness',
          'script',
          '--model',
          'm1',
          '--prompt',
          script('- say: here'),
          '--no-wait',
          '--json',
        ],
        { cwd: sub },
      ),
    ) as {
      conversation: ConversationInfo;
    };
    assert.deepEqual([inside.conversation.project, inside.conversation.cwd], ['p1', sub]);
    const outside = JSON.parse(
      await s.ok(
        [
          'conv',
          'new',
          '--harness',
          'script',
          '--model',
          'm1',
          '--prompt',
          script('- say: there'),
          '--no-wait',
          '--json',
        ],
        { cwd: s.home },
      ),
    ) as {
      conversation: ConversationInfo;
    };
    assert.deepEqual([outside.conversation.project, outside.conversation.cwd], [null, s.home]);
  });
});
