// What each command acts on, read from the argument VS Code passes (extension/commands/
// commandArgs.ts): tree nodes, webview contexts, link arguments and palette calls, each to
// the kind the command table names, and nothing else.
import * as assert from 'node:assert/strict';
import { conversationOf, fileOf, issueOf, prOf, runOf } from '../../extension/commands/commandArgs';
import { COMMAND_IDS, COMMANDS } from '../../extension/commands/commandTable';

describe('command arguments (extension/commands/commandArgs.ts)', () => {
  it('reads a conversation from a deck node, a number or #id, and nothing else', () => {
    assert.equal(conversationOf({ kind: 'conv', convId: 7 }), 7);
    assert.equal(conversationOf(12), 12);
    assert.equal(conversationOf('#5'), 5);
    assert.equal(conversationOf(' 5 '), 5);
    for (const none of [undefined, null, 1.5, '5a', '', { convId: '7' }, { convId: 2.5 }, [7]])
      assert.equal(conversationOf(none), undefined, JSON.stringify(none));
  });

  it('reads an issue from an id or a Reviews row', () => {
    assert.equal(issueOf('i-3'), 'i-3');
    assert.equal(issueOf({ kind: 'issue', issue: 'i-3' }), 'i-3');
    for (const none of [undefined, '', { issue: '' }, { issue: 3 }, 3]) assert.equal(issueOf(none), undefined);
  });

  it("reads a report file from a path or a row's report, else its verdict file", () => {
    assert.equal(fileOf('/w/report.md'), '/w/report.md');
    assert.equal(fileOf({ reportFile: '/w/r.md', verdictFile: '/w/v.md' }), '/w/r.md');
    assert.equal(fileOf({ verdictFile: '/w/v.md' }), '/w/v.md');
    for (const none of [undefined, '', {}, { reportFile: 4 }]) assert.equal(fileOf(none), undefined);
  });

  it("reads a PR row's issue and PR, dropping a PR of the wrong shape", () => {
    const pr = { number: 4, url: null, project: 'p' };
    assert.deepEqual(prOf({ issue: 'i-1', pr }), { issue: 'i-1', pr });
    assert.deepEqual(prOf({ issue: 'i-1', pr: { number: '4', url: null, project: 'p' } }), { issue: 'i-1' });
    assert.deepEqual(prOf({ pr: { number: 4, project: 'p' } }), {});
    assert.deepEqual(prOf(undefined), {});
  });

  it("reads an Awareness card's run", () => {
    assert.deepEqual(runOf({ run: 'r1', project: 'p', extra: 1 }), { run: 'r1', project: 'p' });
    assert.equal(runOf({ run: 'r1' }), undefined);
    assert.equal(runOf('r1'), undefined);
  });

  it('every command offered on a row reads what the row is', () => {
    const onRows = COMMAND_IDS.filter((id) => COMMANDS[id].menus?.some((m) => m.at === 'view/item/context'));
    assert.ok(onRows.length > 10);
    assert.deepEqual(
      onRows.filter((id) => !COMMANDS[id].takes),
      [],
    );
  });
});
