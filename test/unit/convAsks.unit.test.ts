import * as assert from 'node:assert/strict';
import { askFromRequest, cancelledResponse, responseFor } from '../../server/harness/asks';
import { SvcError } from '../../shared/errors';

const permission = (toolKind = 'execute') =>
  askFromRequest(
    '1',
    'session/request_permission',
    {
      sessionId: 's',
      toolCall: { toolCallId: 't', title: 'Run rm -rf build?', kind: toolKind },
      options: [
        { optionId: 'a1', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'a2', name: 'Always', kind: 'allow_always' },
        { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
      ],
    },
    5,
  )!;

const question = askFromRequest(
  '2',
  'elicitation/create',
  {
    mode: 'form',
    sessionId: 's',
    message: 'How many workers?',
    requestedSchema: {
      type: 'object',
      properties: { count: { type: 'integer' }, note: { type: 'string' } },
      required: ['count'],
    },
  },
  7,
)!;

const refusal = (message: string) => (e: unknown) =>
  e instanceof SvcError && e.reason === 'badAnswer' && e.message === message;

describe('needs-you requests and their answers', () => {
  it('a permission request; a switch_mode tool call is a plan approval', () => {
    assert.deepEqual(permission().info, {
      kind: 'permission',
      title: 'Run rm -rf build?',
      options: [
        { id: 'a1', name: 'Allow once', kind: 'allow_once' },
        { id: 'a2', name: 'Always', kind: 'allow_always' },
        { id: 'r1', name: 'Reject', kind: 'reject_once' },
      ],
      fields: [],
      openedAt: 5,
    });
    assert.equal(permission('switch_mode').info.kind, 'plan');
  });

  it('--allow picks allow_once, --deny reject_once, --option the given id', () => {
    assert.deepEqual(responseFor(permission(), { allow: true }), {
      response: { outcome: { outcome: 'selected', optionId: 'a1' } },
      summary: 'Allow once (a1)',
    });
    assert.deepEqual(responseFor(permission(), { deny: true }).response, {
      outcome: { outcome: 'selected', optionId: 'r1' },
    });
    assert.deepEqual(responseFor(permission(), { option: 'a2' }).response, {
      outcome: { outcome: 'selected', optionId: 'a2' },
    });
  });

  it('refuses a wrong option, a text answer to a permission, and zero or two answers', () => {
    assert.throws(
      () => responseFor(permission(), { option: 'zz' }),
      refusal("no option 'zz'; options: a1 (allow_once), a2 (allow_always), r1 (reject_once)"),
    );
    assert.throws(
      () => responseFor(permission(), { text: 'yes' }),
      refusal(
        'this is a permission request, not a question: answer with --allow, --deny or --option <id> (a1, a2, r1)',
      ),
    );
    assert.throws(
      () => responseFor(permission(), {}),
      refusal('answer with exactly one of --allow, --deny, --option <id>, --text <answer>'),
    );
    assert.throws(
      () => responseFor(permission(), { allow: true, deny: true }),
      refusal('answer with exactly one of --allow, --deny, --option <id>, --text <answer>'),
    );
  });

  it('a question: --text fills the first field (coerced to its type), --deny declines', () => {
    assert.deepEqual(question.info, {
      kind: 'question',
      title: 'How many workers?',
      options: [],
      fields: ['count', 'note'],
      openedAt: 7,
    });
    assert.deepEqual(responseFor(question, { text: '4' }), {
      response: { action: 'accept', content: { count: 4 } },
      summary: '4',
    });
    assert.deepEqual(responseFor(question, { deny: true }).response, { action: 'decline' });
    assert.throws(() => responseFor(question, { text: 'four' }), refusal("the question wants a number, got 'four'"));
    assert.throws(
      () => responseFor(question, { allow: true }),
      refusal('the question needs an answer: use --text <answer> (fields: count, note)'),
    );
  });

  it('withdrawn asks answer cancelled in their own protocol form', () => {
    assert.deepEqual(cancelledResponse(permission()), { outcome: { outcome: 'cancelled' } });
    assert.deepEqual(cancelledResponse(question), { action: 'cancel' });
  });

  it('other requests are not asks', () => {
    assert.equal(askFromRequest('3', 'fs/read_text_file', {}, 0), undefined);
  });
});
