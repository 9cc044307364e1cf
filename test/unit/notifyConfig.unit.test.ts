// config.yaml `notify:` (shared/config.ts): each target's fields validated with a message
// that names the key; kinds default to all; names unique; no credential in the URL.
import * as assert from 'node:assert/strict';
import { ConfigFile, describeIssues } from '../../shared/config';

const problems = (notify: unknown): string => {
  const r = ConfigFile.safeParse({ notify });
  assert.ok(!r.success, 'refused');
  return describeIssues('config.yaml', r.error);
};

describe('notify config', () => {
  it('accepts the three kinds, kinds and a secret; no notify: is no target', () => {
    const c = ConfigFile.parse({
      notify: [
        { name: 'phone', kind: 'ntfy', url: 'https://ntfy.sh/my-topic', kinds: ['needs-you', 'blocked'] },
        { name: 'hook', kind: 'webhook', url: 'http://127.0.0.1:9000/svc', secret: 's3cret' },
        { name: 'team', kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' },
      ],
    });
    assert.deepEqual(
      c.notify.map((t) => [t.name, t.kind, t.kinds ?? 'all', t.secret ?? null]),
      [
        ['phone', 'ntfy', ['needs-you', 'blocked'], null],
        ['hook', 'webhook', 'all', 's3cret'],
        ['team', 'slack', 'all', null],
      ],
    );
    assert.deepEqual(ConfigFile.parse({}).notify, []);
  });

  it('names the key of each problem', () => {
    assert.equal(
      problems([{ name: 'a', kind: 'email', url: 'https://x.test/' }]),
      'config.yaml: notify.0.kind: kind is one of webhook, ntfy, slack',
    );
    assert.equal(
      problems([{ name: 'a', kind: 'ntfy', url: 'ftp://x.test/' }]),
      'config.yaml: notify.0.url: url must be an http:// or https:// URL',
    );
    assert.equal(
      problems([{ name: 'a', kind: 'ntfy', url: 'not a url' }]),
      'config.yaml: notify.0.url: url must be an absolute http:// or https:// URL',
    );
    assert.equal(
      problems([{ name: 'a', kind: 'webhook', url: 'https://me:pw@x.test/' }]),
      'config.yaml: notify.0.url: url must not carry a user or password; put the credential in secret: (sent as a bearer token)',
    );
    assert.match(
      problems([{ name: 'a', kind: 'ntfy', url: 'https://x.test/', kinds: ['sometimes'] }]),
      /^config\.yaml: notify\.0\.kinds\.0: /,
    );
    assert.equal(
      problems([{ name: 'a', kind: 'ntfy', url: 'https://x.test/', kinds: [] }]),
      'config.yaml: notify.0.kinds: kinds names at least one inbox kind (leave it out for all)',
    );
    assert.equal(
      problems([{ name: 'Bad Name', kind: 'ntfy', url: 'https://x.test/' }]),
      'config.yaml: notify.0.name: a target name is lowercase letters, digits, - and _, at most 32 characters',
    );
    assert.equal(
      problems([
        { name: 'a', kind: 'ntfy', url: 'https://x.test/' },
        { name: 'a', kind: 'slack', url: 'https://y.test/' },
      ]),
      "config.yaml: notify.1.name: two targets are named 'a'; names are unique",
    );
    assert.match(
      problems([{ name: 'a', kind: 'ntfy', url: 'https://x.test/', token: 'x' }]),
      /^config\.yaml: notify\.0: .*token/,
    );
  });
});
