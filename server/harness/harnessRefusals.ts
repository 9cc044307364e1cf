// Every refusal of a harness: an answer that does not fit the agent's open request, and a
// profile that does not exist or cannot run; each message made here and nowhere else
// (docs/style.md §16). Reasons: shared/refusals/harness.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { HARNESS_REFUSALS } from '../../shared/refusals/harness';

const { usage, conflict } = refusalsOf(HARNESS_REFUSALS);

// ---- Asks: answering an agent's open request

export function askNotReadyError(): SvcError<'askNotReady'> {
  return conflict('askNotReady', 'the request is still arriving; answer again in a moment');
}

interface AskOption {
  id: string;
  kind: string;
}
const optionList = (options: AskOption[]) => options.map((o) => `${o.id} (${o.kind})`).join(', ');

/** Why an answer does not fit the open request. */
export const badAnswer = {
  count: (): SvcError<'badAnswer'> =>
    usage('badAnswer', 'answer with exactly one of --allow, --deny, --option <id>, --text <answer>'),
  notANumber: (text: string): SvcError<'badAnswer'> => usage('badAnswer', `the question wants a number, got '${text}'`),
  notAQuestion: (kind: string, options: AskOption[]): SvcError<'badAnswer'> =>
    usage(
      'badAnswer',
      `this is a ${kind} request, not a question: answer with --allow, --deny or --option <id> (${options.map((o) => o.id).join(', ')})`,
    ),
  noSuchOption: (option: string, options: AskOption[]): SvcError<'badAnswer'> =>
    usage('badAnswer', `no option '${option}'; options: ${optionList(options)}`),
  noAllowOrReject: (allow: boolean, options: AskOption[]): SvcError<'badAnswer'> =>
    usage('badAnswer', `the request offers no ${allow ? 'allow' : 'reject'} option; options: ${optionList(options)}`),
  answerRequired: (fields: string[]): SvcError<'badAnswer'> =>
    usage('badAnswer', `the question needs an answer: use --text <answer> (fields: ${fields.join(', ')})`),
};

// ---- Profiles

/** `custom`: the profiles config.yaml adds beside the built-in ones. */
export function unknownHarnessError(
  name: string,
  builtIn: readonly string[],
  custom: string[],
  configFile: string,
): SvcError<'unknownHarness'> {
  return usage(
    'unknownHarness',
    `unknown harness '${name}' (built in: ${builtIn.join(', ')}${custom.length ? `; configured: ${custom.join(', ')}` : ''}; add one under harnesses: in ${configFile})`,
  );
}

export function harnessWithoutCommandError(name: string, configFile: string): SvcError<'harnessWithoutCommand'> {
  return usage(
    'harnessWithoutCommand',
    `harness '${name}' has no command; set harnesses.${name}.command in ${configFile}`,
  );
}
