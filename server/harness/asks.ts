// Needs-you requests: `session/request_permission` (a permission, or a plan approval
// when the tool call switches mode) and `elicitation/create` (a question). An ask
// belongs to its turn: it is withdrawn on cancel, on turn end and on the agent's
// `$/cancel_request`, and a late answer is refused (docs/acp.md rule 5).
import type { CreateElicitationResponse, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { OpenAsk } from '../../shared/protocol/conversations';
import { badAnswer } from './harnessRefusals';
import { textOf } from '../../shared/format/text';

export type AskResponse = RequestPermissionResponse | CreateElicitationResponse;

export interface Ask {
  key: string;
  method: 'session/request_permission' | 'elicitation/create';
  info: OpenAsk;
  /** Field types of a question, for coercing a text answer. */
  fieldTypes: Record<string, string>;
  required: string[];
  /** Set once the SDK handler runs; settles the JSON-RPC response. */
  settle?: (r: AskResponse) => void;
  /** What was answered, for the transcript line. */
  summary?: string;
}

export interface Answer {
  allow?: boolean;
  deny?: boolean;
  option?: string;
  text?: string;
}

export function askFromRequest(
  key: string,
  method: string,
  params: Record<string, unknown>,
  now: number,
): Ask | undefined {
  if (method === 'session/request_permission') {
    const toolCall = (params.toolCall ?? {}) as { title?: string; kind?: string; toolCallId?: string };
    const options = ((params.options ?? []) as { optionId: string; name: string; kind: string }[]).map((o) => ({
      id: o.optionId,
      name: o.name,
      kind: o.kind,
    }));
    return {
      key,
      method,
      info: {
        kind: toolCall.kind === 'switch_mode' ? 'plan' : 'permission',
        title: toolCall.title ?? toolCall.toolCallId ?? 'permission',
        options,
        fields: [],
        openedAt: now,
      },
      fieldTypes: {},
      required: [],
    };
  }
  if (method === 'elicitation/create') {
    const schema = (params.requestedSchema ?? {}) as {
      properties?: Record<string, { type?: string }>;
      required?: string[];
    };
    const props = schema.properties ?? {};
    return {
      key,
      method,
      info: {
        kind: 'question',
        title: textOf(params.message, 'question'),
        options: [],
        fields: Object.keys(props),
        openedAt: now,
      },
      fieldTypes: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.type ?? 'string'])),
      required: schema.required ?? [],
    };
  }
  return undefined;
}

function pick(ask: Ask, kinds: string[]): string | undefined {
  for (const k of kinds) {
    const o = ask.info.options.find((x) => x.kind === k);
    if (o) return o.id;
  }
  return undefined;
}

function coerce(type: string | undefined, text: string): string | number | boolean {
  if (type === 'number' || type === 'integer') {
    const n = Number(text);
    if (Number.isNaN(n)) throw badAnswer.notANumber(text);
    return n;
  }
  if (type === 'boolean') return /^(y|yes|true|1)$/i.test(text);
  return text;
}

/** The JSON-RPC response for an answer, and a one-line summary; throws a usage error when it does not fit. */
export function responseFor(ask: Ask, a: Answer): { response: AskResponse; summary: string } {
  const given = [a.allow, a.deny, a.option !== undefined, a.text !== undefined].filter(Boolean).length;
  if (given !== 1) throw badAnswer.count();
  if (ask.method === 'session/request_permission') {
    if (a.text !== undefined) throw badAnswer.notAQuestion(ask.info.kind, ask.info.options);
    let optionId: string | undefined;
    if (a.option !== undefined) {
      if (!ask.info.options.some((o) => o.id === a.option)) throw badAnswer.noSuchOption(a.option, ask.info.options);
      optionId = a.option;
    } else optionId = a.allow ? pick(ask, ['allow_once', 'allow_always']) : pick(ask, ['reject_once', 'reject_always']);
    if (!optionId) throw badAnswer.noAllowOrReject(Boolean(a.allow), ask.info.options);
    const name = ask.info.options.find((o) => o.id === optionId)?.name ?? optionId;
    return { response: { outcome: { outcome: 'selected', optionId } }, summary: `${name} (${optionId})` };
  }
  if (a.deny) return { response: { action: 'decline' }, summary: 'declined' };
  const first = ask.info.fields[0];
  const value = a.text ?? a.option;
  if (value === undefined) {
    if (ask.required.length) throw badAnswer.answerRequired(ask.info.fields);
    return { response: { action: 'accept', content: {} }, summary: 'accepted' };
  }
  if (!first) return { response: { action: 'accept', content: {} }, summary: 'accepted' };
  return { response: { action: 'accept', content: { [first]: coerce(ask.fieldTypes[first], value) } }, summary: value };
}

export function cancelledResponse(ask: Ask): AskResponse {
  return ask.method === 'session/request_permission' ? { outcome: { outcome: 'cancelled' } } : { action: 'cancel' };
}
