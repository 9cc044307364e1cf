// svc tell, svc status, svc handoff, svc fork
import {
  conversationsFork,
  conversationsHandoff,
  conversationsStatus,
  conversationsTell,
} from '../../shared/protocol/conversations';
import { bool, JSON_FLAG, jsonText, str, UsageError } from '../cli';
import type { CliIo, CommandSpec, Parsed } from '../cli';
import { withDaemon } from '../client';
import { effortOf, PROMPT_FLAGS, promptOf } from './conv';
import { reportCreated, statusTable } from './convFormat';

function successor(mode: 'handoff' | 'fork'): CommandSpec {
  const what =
    mode === 'handoff'
      ? 'a successor conversation that continues the work from a handoff note'
      : "a successor conversation that starts from a copy of the source's recent output";
  return {
    path: [mode],
    summary: `${what}; nested under its source`,
    usage: [
      '[<conv>] [--prompt <text> | --brief <file>] [--harness <h>] [--model <m>] [--effort <e>] [--title <t>] [--no-wait] [--json]',
    ],
    flags: {
      ...PROMPT_FLAGS,
      harness: { type: 'string', help: "harness (default: the source's)", value: '<h>' },
      model: { type: 'string', help: "model (default: the source's)", value: '<m>' },
      effort: { type: 'string', help: "low, medium or high (default: the source's)", value: '<e>' },
      title: { type: 'string', help: 'title of the successor', value: '<t>' },
      'no-wait': { type: 'boolean', help: 'return at once instead of waiting for the agent to start' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'conv' }],
    details: 'The source defaults to the calling agent ($SVC_CONVERSATION).',
    async run(a: Parsed, io: CliIo) {
      const conv = a.positionals[0];
      if (!conv && !io.env.SVC_CONVERSATION)
        throw new UsageError(`give <conv>, or run svc ${mode} inside an agent ($SVC_CONVERSATION names the source)`);
      return withDaemon(io, async (client) => {
        const r = await client.request(mode === 'handoff' ? conversationsHandoff : conversationsFork, {
          conv,
          caller: io.env.SVC_CONVERSATION,
          prompt: promptOf(a, io, false),
          harness: str(a, 'harness'),
          model: str(a, 'model'),
          effort: effortOf(a),
          title: str(a, 'title'),
          noWait: bool(a, 'no-wait'),
        });
        return reportCreated(r, bool(a, 'json'), io);
      });
    },
  };
}

export const agentCommands: CommandSpec[] = [
  {
    path: ['tell'],
    summary: 'message a conversation: delivered at once when idle, queued in order mid-turn',
    usage: ['<conv> "<text>" [--force]'],
    flags: { force: { type: 'boolean', help: 'message a critic or verifier lane that already filed its done report' } },
    positionals: [
      { name: 'conv', required: true },
      { name: 'text', required: true, rest: true },
    ],
    async run(a, io) {
      const [conv, ...words] = a.positionals;
      const text = words.join(' ');
      if (text.trim() === '') throw new UsageError('the message is empty');
      return withDaemon(io, async (client) => {
        const r = await client.request(conversationsTell, {
          conv,
          text,
          force: bool(a, 'force') || undefined,
          caller: io.env.SVC_CONVERSATION,
        });
        const c = r.conversation;
        io.out(
          r.delivered === 'now'
            ? `Delivered to #${c.id} (${c.name})\n`
            : `Queued for #${c.id} (${c.name}): ${r.ahead} ahead\n`,
        );
        return 0;
      });
    },
  },
  {
    path: ['status'],
    summary: 'every agent with alive, activity, harness, model and cost',
    usage: ['[--all] [--json]'],
    flags: { all: { type: 'boolean', help: 'include archived conversations' }, ...JSON_FLAG },
    async run(a, io) {
      return withDaemon(io, async (client) => {
        const { agents } = await client.request(conversationsStatus, { all: bool(a, 'all') });
        io.out(bool(a, 'json') ? jsonText(agents) : statusTable(agents));
        return 0;
      });
    },
  },
  successor('handoff'),
  successor('fork'),
];
