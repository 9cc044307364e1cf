// The window shows the daemon's sentences without the command that helps, since it
// offers that remedy as a button (extension/errors/cliHints.ts).
import * as assert from 'node:assert/strict';
import { foldTranscript } from '../../extension/conversations/transcriptItems';
import { refusalFix, withoutCliHint } from '../../extension/errors/cliHints';
import { noOpenAskError, notRunningError, stillRunningError } from '../../server/conversations/conversationRefusals';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import type { SvcError } from '../../shared/errors';

describe('CLI hints in the window', () => {
  it('drops the trailing clause or parenthesis naming an svc command, and nothing else', () => {
    const cases: [string, string][] = [
      [
        'critic s1-api-critic-i1 already filed its done report; svc tell --force to message it anyway',
        'critic s1-api-critic-i1 already filed its done report',
      ],
      [
        'conversation #3 (r1-api-builder-i1) is not running (stopped); resume it with svc conv resume #3',
        'conversation #3 (r1-api-builder-i1) is not running (stopped)',
      ],
      [
        'conversation #3 (x) is still running; stop it first (svc conv stop #3)',
        'conversation #3 (x) is still running; stop it first',
      ],
      [
        'the daemon restarted; the agent is gone (svc conv resume continues it)',
        'the daemon restarted; the agent is gone',
      ],
      ["unknown project 'x' (see svc project list; add one with svc project add <key> <path>)", "unknown project 'x'"],
      ['resume requested', 'resume requested'],
      ['the svc daemon is not connected: socket closed', 'the svc daemon is not connected: socket closed'],
    ];
    for (const [from, to] of cases) assert.equal(withoutCliHint(from), to, from);
  });

  it('shows transcript notes without the command', () => {
    const items = foldTranscript([
      {
        seq: 1,
        at: 5,
        kind: 'lifecycle',
        payload: { event: 'ended', text: 'the daemon restarted; the agent is gone (svc conv resume continues it)' },
      },
    ] as never);
    assert.deepEqual(items, [
      { id: 'n1', kind: 'note', at: 5, text: 'the daemon restarted; the agent is gone', tone: 'info' },
    ]);
  });
});

describe('refusals the window can fix (refusalFix)', () => {
  const answered = (e: SvcError) => new DaemonRefusal(e.message, e.reason, e.kind);
  const conv = { id: 3, name: 'r1-api-builder-i1' };

  it('matches on the reason, never the text: notRunning offers Resume, stillRunning Stop It, on the conversation named', () => {
    assert.deepEqual(refusalFix(answered(notRunningError(conv, 'stopped'))), {
      message: 'conversation #3 (r1-api-builder-i1) is not running (stopped).',
      button: 'Resume',
      command: 'svc.resumeConversation',
      args: [3],
    });
    assert.deepEqual(refusalFix(answered(stillRunningError(conv))), {
      message: 'conversation #3 (r1-api-builder-i1) is still running; stop it first.',
      button: 'Stop It',
      command: 'svc.stopConversation',
      args: [3],
    });
  });

  it('offers nothing for another reason, even with the same words', () => {
    assert.equal(refusalFix(answered(noOpenAskError(conv))), undefined);
    assert.equal(refusalFix(new DaemonRefusal(notRunningError(conv, 'stopped').message, 'rpc', 'conflict')), undefined);
  });
});
