// `npm run demo:ui` says how long a first run takes before its slow steps (scripts/demo/demoUiNote.ts).
import * as assert from 'node:assert/strict';
import { firstRunNote } from '../../scripts/demo/demoUiNote';

describe('npm run demo:ui: how long the first run takes, said first', () => {
  it('names each slow step ahead with its time, and says nothing once they are done', () => {
    assert.equal(
      firstRunNote({ demo: true, codeServer: true }),
      'first run: it will run the demo (about 30 s), then install code-server into .code-server/ (3 to 5 minutes: it compiles native modules), then package the extension (about 30 s); later runs start in under a minute.',
    );
    assert.equal(
      firstRunNote({ demo: false, codeServer: true }),
      'first run: it will install code-server into .code-server/ (3 to 5 minutes: it compiles native modules), then package the extension (about 30 s); later runs start in under a minute.',
    );
    assert.equal(firstRunNote({ demo: false, codeServer: false }), null);
  });
});
