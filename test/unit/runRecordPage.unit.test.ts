// The run record's defences, unit by unit: Markdown an agent wrote renders with nothing that
// runs or loads, a record's strings lose the home path and credentials, and a review's
// posted findings are listed with their state.
import * as assert from 'node:assert/strict';
import type { FindingInfo } from '../../shared/protocol/review';
import type { RunRecord } from '../../shared/protocol/runRecord';
import { markdownHtml } from '../../server/runRecord/markdown';
import { renderRunRecord } from '../../server/runRecord/render';
import { redactDeep, redactText } from '../../server/runRecord/redact';

describe('run record: report Markdown', () => {
  it('shows raw HTML as text, an image as its address, and drops script links', () => {
    const html = markdownHtml(
      [
        '<script>alert(1)</script>',
        '',
        '<img src=x onerror=alert(1)>',
        '',
        '![pixel](https://tracker.example/p.png)',
        '',
        '[x](javascript:alert(1)) [ok](https://example.com)',
      ].join('\n'),
    );
    assert.equal(
      html,
      [
        '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
        '<p>&lt;img src=x onerror=alert(1)&gt;</p>',
        '<p><span class="img">[image: pixel — https://tracker.example/p.png]</span></p>',
        '<p>[x](javascript:alert(1)) <a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">ok</a></p>',
        '',
      ].join('\n'),
    );
  });
});

describe('run record: redaction', () => {
  const r = (text: string) => redactText(text, undefined);

  it('shows paths under the home as ~, also inside a quoted restore command, but not a sibling folder that starts with its name', () => {
    assert.equal(redactText('/home/me/src/web-lanes/a and /home/me', '/home/me'), '~/src/web-lanes/a and ~');
    assert.equal(
      redactText(
        `restore with: git -C '/home/me/src/web' apply --index -p2 "/home/me/.svc/parked/web/a.patch"`,
        '/home/me',
      ),
      `restore with: git -C '~/src/web' apply --index -p2 "~/.svc/parked/web/a.patch"`,
    );
    assert.equal(redactText('/home/me/x and /home/meg/y', '/home/me/'), '~/x and /home/meg/y');
    assert.deepEqual(redactDeep({ a: ['/h/x', 3, null], b: { c: 'API_KEY=zzz' } }, '/h'), {
      a: ['~/x', 3, null],
      b: { c: 'API_KEY=[redacted]' },
    });
  });

  it('hides each known token shape', () => {
    for (const token of [
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'gho_abcdefghijklmnopqrstuvwxyz0123456789',
      'ghs_abcdefghijklmnopqrstuvwxyz0123456789',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz',
      'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
      'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
      'sk-abcdefghijklmnopqrstuvwxyz012345',
      'AKIAABCDEFGHIJKLMNOP',
      'xoxb-1234567890-abcdefghij',
      'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
      'glpat-abcdefghijklmnopqrstu',
    ]) {
      assert.equal(r(`used ${token} here`), 'used [redacted] here', token);
    }
  });

  it('hides Bearer tokens and Authorization headers', () => {
    assert.equal(
      r('curl -H "Authorization: Bearer abc.def-ghi_123" https://api'),
      'curl -H "Authorization: [redacted]" https://api',
    );
    assert.equal(r('Authorization: token 0123456789abcdef'), 'Authorization: [redacted]');
    assert.equal(r('sent bearer eyJhbGciOiJIUzI1NiJ9.e30.abc'), 'sent bearer [redacted]');
  });

  it('hides credentials in URLs: x-access-token, user:password, a bare token', () => {
    assert.equal(
      r('git push https://x-access-token:v1.0123456789abcdef@github.com/o/r.git main'),
      'git push https://[redacted]@github.com/o/r.git main',
    );
    assert.equal(
      r('remote ssh://deploy:hunter2@host.example/repo and https://tok123@x.example/p'),
      'remote ssh://[redacted]@host.example/repo and https://[redacted]@x.example/p',
    );
    assert.equal(r('git@github.com:o/r.git stays'), 'git@github.com:o/r.git stays');
  });

  it('hides the value of NAME=value and NAME: value for secret-looking names in any case', () => {
    assert.equal(r('GITHUB_TOKEN=anything'), 'GITHUB_TOKEN=[redacted]');
    assert.equal(r('export github_token=anything'), 'export github_token=[redacted]');
    assert.equal(r('DB_PASSWORD="hunter 2"'), 'DB_PASSWORD=[redacted]');
    assert.equal(r("password: 'hunter2'"), 'password: [redacted]');
    assert.equal(r('Client_Secret = s3cr3t'), 'Client_Secret = [redacted]');
    assert.equal(r('openai_api_key: abc'), 'openai_api_key: [redacted]');
    assert.equal(r('AWS_SECRET_ACCESS_KEY=wJalr/XUtnFEMI'), 'AWS_SECRET_ACCESS_KEY=[redacted]');
    assert.equal(r('aws_access_key_id=zzz'), 'aws_access_key_id=[redacted]');
    assert.equal(r('GOOGLE_APPLICATION_CREDENTIALS=/x/key.json'), 'GOOGLE_APPLICATION_CREDENTIALS=[redacted]');
    // Not secrets: a count of tokens, ordinary words.
    assert.equal(r('input tokens: 1200, the author: Ann'), 'input tokens: 1200, the author: Ann');
  });
});

describe('run record: review findings', () => {
  const record = (findings: FindingInfo[]): RunRecord => ({
    project: 'web',
    run: 'r1',
    exportedAt: 0,
    svcVersion: '0.1.0',
    launchers: [],
    lanes: [],
    successors: [],
    chains: [],
    reports: [],
    diffs: [],
    timeline: [],
    cost: { total: 0, reported: false, spend: '' },
    parked: [],
    landings: [],
    reviews: [
      {
        issue: 'WEB-1',
        title: 'Greet',
        runId: 'r1',
        mode: 'full',
        sha: 'a'.repeat(40),
        verdict: 'APPROVED',
        phase: 'verdict',
        at: 0,
        findings,
      },
    ],
  });

  it("lists a run's posted findings with their state, as text", () => {
    const html = renderRunRecord(
      record([
        {
          id: 'f-0123456789',
          severity: 'nit',
          location: 'greet.sh:3',
          title: 'quote <b>once</b>',
          status: 'new',
          dismissed: false,
          onLine: true,
        },
        {
          id: 'f-abcdefabcd',
          severity: 'blocker',
          location: 'api.ts:4-9',
          title: 'unchecked input',
          status: 'open',
          dismissed: true,
          onLine: true,
        },
        {
          id: 'f-9999999999',
          severity: 'should-fix',
          location: 'db.ts:2',
          title: 'slow query',
          status: 'fixed',
          dismissed: false,
          onLine: false,
        },
      ]),
    );
    assert.ok(html.includes('<h3>Findings of r1</h3>'), html);
    assert.ok(
      html.includes(
        '<li>[nit] <code>greet.sh:3</code> quote &lt;b&gt;once&lt;/b&gt; · new · on its line <code>f-0123456789</code></li>',
      ),
    );
    assert.ok(
      html.includes(
        '<li>[blocker] <code>api.ts:4-9</code> unchecked input · still open · dismissed <code>f-abcdefabcd</code></li>',
      ),
    );
    assert.ok(
      html.includes('<li>[should-fix] <code>db.ts:2</code> slow query · fixed since <code>f-9999999999</code></li>'),
    );
  });

  it('shows no findings heading for a run without findings', () => {
    assert.ok(!renderRunRecord(record([])).includes('Findings of'));
  });
});
