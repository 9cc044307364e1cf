// The run record's defences, unit by unit: Markdown an agent wrote renders with nothing that
// runs or loads, and a record's strings lose the home path and credentials.
import * as assert from 'node:assert/strict';
import { markdownHtml } from '../../server/runRecord/markdown';
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
  it('shows paths under the home as ~ and hides token shapes and secret assignments', () => {
    assert.equal(redactText('/home/me/src/web-lanes/a and /home/me', '/home/me'), '~/src/web-lanes/a and ~');
    assert.equal(redactText('GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789', undefined), 'GITHUB_TOKEN=[redacted]');
    assert.equal(redactText('key sk-ant-api03-abcdefghijklmnopqrstuvwxyz here', undefined), 'key [redacted] here');
    assert.equal(redactText('password: "hunter2" and AKIAABCDEFGHIJKLMNOP', undefined), 'password: "hunter2" and [redacted]');
    assert.equal(redactText('DB_PASSWORD="hunter2"', undefined), 'DB_PASSWORD=[redacted]');
    assert.deepEqual(redactDeep({ a: ['/h/x', 3, null], b: { c: 'API_KEY=zzz' } }, '/h'), { a: ['~/x', 3, null], b: { c: 'API_KEY=[redacted]' } });
  });
});
