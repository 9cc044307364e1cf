import * as assert from 'node:assert/strict';
import { findScriptBlock, parseSteps, ScriptError, stepsFor } from '../../server/harness/script/scriptSteps';

describe('script harness steps', () => {
  it('finds the svc-script block and parses every step kind in order', () => {
    const prompt = [
      'Please do this:',
      '```svc-script',
      '- say: hello',
      '- run: make test',
      '  check: true',
      '- run: ls',
      '- ask: Deploy?',
      '- sleep: 250',
      '- write: {path: a/b.txt, content: hi}',
      '- exit: 2',
      '```',
      'thanks',
    ].join('\n');
    assert.deepEqual(stepsFor(prompt, undefined), [
      { say: 'hello' },
      { run: 'make test', check: true },
      { run: 'ls', check: false },
      { ask: 'Deploy?' },
      { sleep: 250 },
      { write: { path: 'a/b.txt', content: 'hi' } },
      { exit: 2 },
    ]);
  });

  it('ignores other fenced blocks and a fence not at line start', () => {
    assert.equal(findScriptBlock('```yaml\n- say: no\n```\n> ```svc-script\n> - say: quoted\n> ```'), undefined);
    assert.equal(findScriptBlock('~~~svc-script\n- say: tilde\n~~~\n'), '- say: tilde\n');
  });

  it('a prompt without a block uses the scripts: file, which may itself hold a block or be plain YAML', () => {
    assert.equal(stepsFor('no block here', undefined), undefined);
    assert.deepEqual(stepsFor('no block', '- say: from file\n'), [{ say: 'from file' }]);
    assert.deepEqual(stepsFor('no block', '# Review\n```svc-script\n- say: fenced\n```\n'), [{ say: 'fenced' }]);
    assert.deepEqual(stepsFor('```svc-script\n- say: prompt wins\n```', '- say: file'), [{ say: 'prompt wins' }]);
  });

  it('an empty block is an empty script', () => {
    assert.deepEqual(parseSteps(''), []);
  });

  const bad: [string, string][] = [
    ['say: not a list', 'the svc-script block must be a YAML list of steps'],
    ['- 42', 'step 1: a step is a mapping like `say: hello`'],
    ['- say: a\n- dance: now', "step 2: unknown step 'dance' (steps: say, run, ask, sleep, write, plan, cost, exit)"],
    ['- say: a\n  run: b', 'step 1: give exactly one of say, run, ask, sleep, write, plan, cost, exit (got say, run)'],
    ['- plan: []', 'step 1: plan needs a list of entries'],
    ['- plan: [{status: pending}]', 'step 1: a plan entry is text or {content, status}'],
    [
      '- plan: [{content: x, status: maybe}]',
      "step 1: a plan entry's status is one of pending, in_progress, completed",
    ],
    ['- sleep: soon', 'step 1: sleep needs milliseconds (a number ≥ 0)'],
    ['- exit: 300', 'step 1: exit needs a code from 0 to 255'],
    ['- run: ""', 'step 1: run needs a shell command'],
    ['- say: x\n  check: true', 'step 1: `check` belongs to a run step'],
    ['- write: {content: x}', 'step 1: write needs {path, content}'],
    ['- say: x\n  show: terminal', 'step 1: `show` belongs to a run step'],
    ['- run: x\n  newline: false', 'step 1: `newline` belongs to a say step'],
    ['- run: x\n  show: tty', 'step 1: show is one of content, terminal, late-title'],
    ['- say: x\n  newline: no', 'step 1: newline is true or false'],
  ];
  for (const [yaml, message] of bad) {
    it(`refuses ${JSON.stringify(yaml)}`, () => {
      assert.throws(
        () => parseSteps(yaml),
        (e: unknown) => e instanceof ScriptError && e.message === message,
      );
    });
  }

  it('parses a plan of text and {content, status} entries', () => {
    assert.deepEqual(parseSteps('- plan: [read the brief, {content: write code, status: in_progress}]'), [
      {
        plan: [
          { content: 'read the brief', status: 'pending' },
          { content: 'write code', status: 'in_progress' },
        ],
      },
    ]);
  });

  it('refuses text that is not YAML', () => {
    assert.throws(
      () => parseSteps('- say: [unclosed'),
      (e: unknown) => e instanceof ScriptError && e.message.startsWith('the svc-script block is not YAML: '),
    );
  });

  it('parses how a run step reports itself and a say without its newline', () => {
    assert.deepEqual(
      parseSteps(
        '- run: make\n  show: terminal\n- run: ls\n  show: late-title\n  check: true\n- run: pwd\n  show: content\n- say: hi\n  newline: false\n- say: there\n  newline: true',
      ),
      [
        { run: 'make', check: false, show: 'terminal' },
        { run: 'ls', check: true, show: 'late-title' },
        { run: 'pwd', check: false },
        { say: 'hi', newline: false },
        { say: 'there' },
      ],
    );
  });
});
