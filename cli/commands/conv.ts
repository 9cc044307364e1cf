// svc conv new|list|show|log|stop|archive|unarchive|resume|answer
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changed } from '../../shared/protocol/daemon';
import { lanesList } from '../../shared/protocol/lanes';
import {
  conversationsAnswer,
  conversationsArchive,
  conversationsList,
  conversationsLog,
  conversationsNew,
  conversationsResume,
  conversationsShow,
  conversationsStop,
  conversationsUnarchive,
} from '../../shared/protocol/conversations';
import { conversationsResumeStoppedByDaemon } from '../../shared/protocol/stoppedByDaemon';
import { EFFORTS } from '../../shared/config';
import { bool, int, JSON_FLAG, jsonText, str, UsageError } from '../cli';
import type { CliIo, CommandSpec, FlagSpec, Parsed } from '../cli';
import { ConnectionLost } from '../../shared/client/connectionLost';
import { withDaemon } from '../client';
import type { Client } from '../client';
import { deckTree, reportCreated, resumedAll, showText } from './convFormat';

const CONV = [{ name: 'conv', required: true }];

/** The prompt of `--prompt <text>` or `--brief <file>` (exactly one); undefined when neither and not required. */
export function promptOf(a: Parsed, io: CliIo, required: boolean): string | undefined {
  const prompt = str(a, 'prompt');
  const brief = str(a, 'brief');
  if (prompt !== undefined && brief !== undefined) throw new UsageError('give --prompt or --brief, not both');
  if (brief !== undefined) {
    const file = path.resolve(io.cwd, brief);
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read --brief ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  if (prompt === undefined && required) throw new UsageError('give --prompt <text> or --brief <file>');
  return prompt;
}

export function effortOf(a: Parsed): 'low' | 'medium' | 'high' | undefined {
  const e = str(a, 'effort');
  if (e !== undefined && !['low', 'medium', 'high'].includes(e))
    throw new UsageError(`--effort is low, medium or high, got '${e}'`);
  return e as 'low' | 'medium' | 'high' | undefined;
}

export const PROMPT_FLAGS: Record<string, FlagSpec> = {
  prompt: { type: 'string', help: 'the first message', value: '<text>' },
  brief: { type: 'string', help: 'a file holding the first message', value: '<file>' },
};

export const convCommands: CommandSpec[] = [
  {
    path: ['conv', 'new'],
    summary: 'start a root conversation on a harness',
    usage: [
      '[--project <key>] --harness <h> --model <m> [--effort low|medium|high] [--cwd <dir>] [--title <t>] (--prompt <text> | --brief <file>) [--no-wait] [--json]',
    ],
    flags: {
      project: {
        type: 'string',
        help: 'project key (default: the project holding --cwd, else the current folder)',
        value: '<key>',
      },
      harness: {
        type: 'string',
        help: 'harness profile: claude, codex, gemini, script or one of config.yaml',
        value: '<h>',
      },
      model: { type: 'string', help: 'model for the harness', value: '<m>' },
      effort: { type: 'string', help: 'low, medium or high', value: '<e>', choices: EFFORTS },
      cwd: {
        type: 'string',
        help: "working directory (default: the project's checkout with --project, else the current folder)",
        value: '<dir>',
      },
      title: { type: 'string', help: 'title shown in the Command Deck', value: '<t>' },
      ...PROMPT_FLAGS,
      'no-wait': { type: 'boolean', help: 'return at once instead of waiting up to 180 s for the agent to start' },
      ...JSON_FLAG,
    },
    async run(a, io) {
      const harness = str(a, 'harness');
      const model = str(a, 'model');
      if (!harness) throw new UsageError('missing --harness <h>');
      if (!model) throw new UsageError('missing --model <m>');
      const prompt = promptOf(a, io, true)!;
      const cwdFlag = str(a, 'cwd');
      const project = str(a, 'project');
      const r = await withDaemon(io, (c) =>
        c.request(conversationsNew, {
          project,
          // No --project: the folder it runs in (or --cwd) names the project, as `git` finds its repository.
          cwd: cwdFlag ? path.resolve(io.cwd, cwdFlag) : project ? undefined : io.cwd,
          harness,
          model,
          effort: effortOf(a),
          title: str(a, 'title'),
          prompt,
          noWait: bool(a, 'no-wait'),
          caller: io.env.SVC_CONVERSATION,
        }),
      );
      return reportCreated(r, bool(a, 'json'), io);
    },
  },
  {
    path: ['conv', 'list'],
    summary:
      'the Command Deck as a tree: roots, lanes under their launcher, critics under their builder, successors under their source',
    usage: ['[--all] [--json]'],
    flags: { all: { type: 'boolean', help: 'include archived conversations' }, ...JSON_FLAG },
    async run(a, io) {
      const { conversations, lanes } = await withDaemon(io, async (c) => ({
        ...(await c.request(conversationsList, { all: bool(a, 'all') })),
        // The lanes place each critic under the builder it judges, as the Command Deck does.
        lanes: bool(a, 'json') ? [] : (await c.request(lanesList, {})).lanes,
      }));
      io.out(bool(a, 'json') ? jsonText(conversations) : deckTree(conversations, lanes));
      return 0;
    },
  },
  {
    path: ['conv', 'show'],
    summary: 'one conversation: activity, harness, model, times, spawn error, the open request',
    usage: ['<conv> [--json]'],
    flags: { ...JSON_FLAG },
    positionals: CONV,
    async run(a, io) {
      const c = await withDaemon(io, (cl) => cl.request(conversationsShow, { conv: a.positionals[0] }));
      io.out(bool(a, 'json') ? jsonText(c) : showText(c));
      return 0;
    },
  },
  {
    path: ['conv', 'log'],
    summary: "a conversation's output: prompts, agent messages, tool output",
    usage: ['<conv> [--lines <n>] [--follow]'],
    flags: {
      lines: { type: 'int', help: 'how many recent lines (default 50)', value: '<n>' },
      follow: { type: 'boolean', help: 'keep printing new output until the agent stops' },
    },
    positionals: CONV,
    async run(a, io) {
      const conv = a.positionals[0];
      const lines = int(a, 'lines');
      if (lines !== undefined && lines < 1) throw new UsageError('--lines must be at least 1');
      return withDaemon(io, async (client) => {
        const first = await client.request(conversationsLog, { conv, lines: lines ?? 50 });
        io.out(first.text);
        if (!bool(a, 'follow') || !first.live) return 0;
        await follow(client, conv, first.lastSeq, io);
        return 0;
      });
    },
  },
  {
    path: ['conv', 'stop'],
    summary: 'stop a conversation through the stop door (cancel, close stdin, SIGTERM its process group)',
    usage: ['<conv> [--timeout <s>] [--kill]'],
    flags: {
      timeout: { type: 'int', help: 'seconds to wait for the agent to stop (default 10)', value: '<s>' },
      kill: { type: 'boolean', help: 'SIGKILL the process group if it is still alive after the wait' },
    },
    positionals: CONV,
    async run(a, io) {
      const t = int(a, 'timeout');
      if (t !== undefined && (t < 1 || t > 600)) throw new UsageError('--timeout is 1 to 600 seconds');
      const r = await withDaemon(io, (c) =>
        c.request(conversationsStop, {
          conv: a.positionals[0],
          kill: bool(a, 'kill'),
          timeoutMs: t === undefined ? undefined : t * 1000,
        }),
      );
      const c = r.conversation;
      if (r.stopped) {
        io.out(`Stopped #${c.id} (${c.name})\n`);
        return 0;
      }
      io.err(
        `#${c.id} (${c.name}) is still alive after ${t ?? 10} s${bool(a, 'kill') ? ' even after SIGKILL' : `; escalate with: svc conv stop #${c.id} --kill`}\n`,
      );
      return 1;
    },
  },
  {
    path: ['conv', 'archive'],
    summary: 'hide a stopped conversation from the Command Deck (its transcript stays)',
    usage: ['<conv>'],
    flags: {},
    positionals: CONV,
    async run(a, io) {
      const c = await withDaemon(io, (cl) => cl.request(conversationsArchive, { conv: a.positionals[0] }));
      io.out(`Archived #${c.id} (${c.name})\n`);
      return 0;
    },
  },
  {
    path: ['conv', 'unarchive'],
    summary: 'bring an archived conversation back to the Command Deck',
    usage: ['<conv>'],
    flags: {},
    positionals: CONV,
    async run(a, io) {
      const c = await withDaemon(io, (cl) => cl.request(conversationsUnarchive, { conv: a.positionals[0] }));
      io.out(`Unarchived #${c.id} (${c.name})\n`);
      return 0;
    },
  },
  {
    path: ['conv', 'resume'],
    summary:
      "restart a stopped conversation's agent (session/load or session/resume, else a fresh session told it continues)",
    usage: ['<conv> [--no-wait] [--json]', '--all-stopped-by-daemon [--no-wait] [--json]'],
    flags: {
      'no-wait': { type: 'boolean', help: 'return at once instead of waiting for the agent to start' },
      'all-stopped-by-daemon': {
        type: 'boolean',
        help: 'every agent the daemon stopped when it stopped (or left when it crashed), not resumed or archived since',
      },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'conv' }],
    details:
      'With --all-stopped-by-daemon: one line per agent resumed, and each one refused on stderr (exit 1 when any was refused or failed to start). A needs-you request the stop withdrew comes back: the agent is handed its interrupted turn again and asks again.',
    async run(a, io) {
      const conv = a.positionals[0];
      if (bool(a, 'all-stopped-by-daemon')) {
        if (conv !== undefined)
          throw new UsageError(
            `--all-stopped-by-daemon resumes every agent the daemon stopped; give it without a conversation, or resume '${conv}' alone with svc conv resume ${conv}`,
          );
        const r = await withDaemon(io, (c) =>
          c.request(conversationsResumeStoppedByDaemon, { noWait: bool(a, 'no-wait') }),
        );
        return resumedAll(r, bool(a, 'json'), io);
      }
      if (conv === undefined) throw new UsageError('missing <conv> (or --all-stopped-by-daemon)');
      const r = await withDaemon(io, (c) => c.request(conversationsResume, { conv, noWait: bool(a, 'no-wait') }));
      return reportCreated(r, bool(a, 'json'), io);
    },
  },
  {
    path: ['conv', 'answer'],
    summary: 'answer the open needs-you request (a permission, a question or a plan approval)',
    usage: ['<conv> (--allow | --deny | --option <id> | --text <answer>)'],
    flags: {
      allow: { type: 'boolean', help: 'allow (once) / accept' },
      deny: { type: 'boolean', help: 'reject (once) / decline' },
      option: { type: 'string', help: 'choose this permission option id', value: '<id>' },
      text: { type: 'string', help: 'the answer to a question', value: '<answer>' },
    },
    positionals: CONV,
    async run(a, io) {
      const given = ['allow', 'deny', 'option', 'text'].filter((f) => a.flags[f] !== undefined);
      if (given.length !== 1)
        throw new UsageError('give exactly one of --allow, --deny, --option <id>, --text <answer>');
      const r = await withDaemon(io, (c) =>
        c.request(conversationsAnswer, {
          conv: a.positionals[0],
          allow: bool(a, 'allow') || undefined,
          deny: bool(a, 'deny') || undefined,
          option: str(a, 'option'),
          text: str(a, 'text'),
        }),
      );
      io.out(`Answered #${r.conversation.id} (${r.conversation.name}): ${r.answered.kind} "${r.answered.title}"\n`);
      return 0;
    },
  },
];

/** Prints new transcript output on each change notification until the agent is no longer live. */
async function follow(client: Client, conv: string, fromSeq: number, io: CliIo): Promise<void> {
  let seq = fromSeq;
  let busy = false;
  let again = false;
  await new Promise<void>((resolve, reject) => {
    const pull = async () => {
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          const r = await client.request(conversationsLog, { conv, afterSeq: seq });
          if (r.text) io.out(r.text);
          seq = r.lastSeq;
          if (!r.live) return resolve();
        } while (again);
      } catch (e) {
        reject(e);
      } finally {
        busy = false;
      }
    };
    client.onNotification(changed, (p) => {
      if (p.topic === 'transcript' || p.topic === 'conversations') void pull();
    });
    // Following ends with an error, never quietly, when the daemon goes away.
    client.onClose(() => reject(new ConnectionLost(conversationsLog.method, { conv })));
    void pull();
  });
}
