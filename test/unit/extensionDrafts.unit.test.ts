import * as assert from 'node:assert/strict';
import { draftBody, draftHeader } from '../../extension/compose/draftText';

describe('editor drafts (extension/compose/draftText.ts)', () => {
  it('sends the text after the leading comment, trimmed', () => {
    const header = draftHeader(['The brief of lane r1/api.', 'Run "svc: Launch Lane" to launch it.']);
    assert.equal(header, '<!--\n  The brief of lane r1/api.\n  Run "svc: Launch Lane" to launch it.\n-->\n\n');
    assert.equal(draftBody(`${header}Build the API.\n\n- tests pass\n`), 'Build the API.\n\n- tests pass');
    assert.equal(draftBody(header), '');
    assert.equal(draftBody(`${header}   \n\n`), '');
  });

  it('keeps a comment that is not the draft header, and text without one', () => {
    assert.equal(draftBody('Plain brief.\n<!-- a note -->\n'), 'Plain brief.\n<!-- a note -->');
    assert.equal(draftBody('\uFEFF<!-- h -->\nbody'), 'body');
  });

  it('cannot be closed early by the header text itself', () => {
    assert.equal(draftHeader(['a --> b']), '<!--\n  a —> b\n-->\n\n');
  });
});
