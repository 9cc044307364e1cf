// svc lane start|list|show|wait|report|stop|runs — the spec's `svc lane` commands.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defectCount } from '../../shared/format/defects';
import { laneTable } from './laneFormat';
import { laneStartLine, laneStartTrouble } from '../../shared/format/laneStart';
import { formatLandingQueue } from './landQueueFormat';
import { table } from './table';
import {
  lanesBudget,
  lanesList,
  lanesReap,
  lanesReport,
  lanesRuns,
  lanesShow,
  lanesStart,
  lanesStop,
  lanesWait,
  REPORT_BODY_MAX,
} from '../../shared/protocol/lanes';
import { formatCost, parseUsd } from '../../shared/format/money';
import { formatReapReport } from '../../shared/format/reapReport';
import { EFFORTS, ROLES } from '../../shared/config';
import type { Role } from '../../shared/config';
import type { ReportStatus, Verdict } from '../../shared/keys';
import { bool, int, JSON_FLAG, printJson, str, UsageError } from '../cli';
import type { CliIo, CommandSpec, Parsed } from '../cli';
import { retryOnConnectionLost, withDaemon } from '../client';

const abs = (io: CliIo, p: string | undefined) => (p === undefined ? undefined : path.resolve(io.cwd, p));

function readBriefHere(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`brief ${file} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

const laneStart: CommandSpec = {
  path: ['lane', 'start'],
  summary: 'launch a lane: a builder, critic, verifier, play or orchestrator conversation in its own directory',
  usage: [
    '(--key <key> | --for <builder key>) --role <role> (--brief <file> | --prompt <text>)',
    '  [--run <key>] [--parent <conv>] [--project <key>] [--model <m>] [--harness <h>] [--effort <e>]',
    '  [--title <t>] [--branch <b>] [--from <ref>] [--at <ref>] [--reuse] [--replace] [--no-wait] [--host <name>] [--budget <usd>]',
    '  [--sandbox workspace|off] [--json]',
  ],
  flags: {
    key: { type: 'string', help: 'the lane key inside its run', value: '<key>' },
    for: {
      type: 'string',
      help: 'critic/verifier: the key of the builder judged (the key defaults to it)',
      value: '<builder key>',
    },
    role: { type: 'string', help: 'builder, critic, verifier, play or orchestrator', value: '<role>', choices: ROLES },
    brief: { type: 'string', help: 'the brief, a Markdown file (written once to lane-brief.md)', value: '<file>' },
    prompt: { type: 'string', help: 'the brief as text, instead of --brief', value: '<text>' },
    run: {
      type: 'string',
      help: 'the run key (required from a root; inherited from an orchestrator lane)',
      value: '<key>',
    },
    parent: {
      type: 'string',
      help: 'the launching conversation, for a person outside any conversation',
      value: '<conv>',
    },
    project: {
      type: 'string',
      help: 'the project (default: the launcher’s, or the one holding the current folder)',
      value: '<key>',
    },
    model: {
      type: 'string',
      help: 'the model (default: gauntlet.roles.<role>.model; there is no other default)',
      value: '<m>',
    },
    harness: {
      type: 'string',
      help: 'claude, codex, gemini, script or a config.yaml profile (default: the launcher’s)',
      value: '<h>',
    },
    effort: { type: 'string', help: 'low, medium or high', value: '<e>', choices: EFFORTS },
    title: { type: 'string', help: 'a title for the conversation', value: '<t>' },
    branch: {
      type: 'string',
      help: 'builder: the branch to create (default <run>/<key> or <run>/<key>-i<n>)',
      value: '<b>',
    },
    from: {
      type: 'string',
      help: 'builder: the start point (default: the base ref, or the previous iteration’s branch)',
      value: '<ref>',
    },
    at: {
      type: 'string',
      help: 'critic/verifier/orchestrator: the commit to check out (critic default: the judged builder’s done head)',
      value: '<ref>',
    },
    reuse: {
      type: 'boolean',
      help: 'a fresh conversation in the directory of the latest earlier lane of this run, key and role',
    },
    replace: { type: 'boolean', help: 'stop the live lane of this run, key and role first' },
    'no-wait': { type: 'boolean', help: 'return at once instead of waiting up to 180 s for the lane to start' },
    host: {
      type: 'string',
      help: 'run the lane on this host of config.yaml hosts: over SSH (default: gauntlet.roles.<role>.host, else here)',
      value: '<name>',
    },
    budget: {
      type: 'string',
      help: 'the lane’s spend cap in US dollars (default: gauntlet.roles.<role>.budget; a --reuse keeps the earlier cap)',
      value: '<usd>',
    },
    sandbox: {
      type: 'string',
      help: 'workspace: the agent can change only its own worktree; off: it runs as you (default: gauntlet.roles.<role>.sandbox, the harness’s, else workspace on Linux and macOS)',
      value: 'workspace|off',
    },
    ...JSON_FLAG,
  },
  details:
    'Prints: Lane <run>/<key> <role> i<n>: conv <id> (<name>) in <cwd>\nExit 0 on success, 1 on any refusal, and 1 (after the line) for a lane that failed to start or has not started within 180 s.',
  async run(a, io) {
    const role = str(a, 'role');
    if (!role) throw new UsageError('missing --role <role>');
    const sandbox = str(a, 'sandbox');
    if (sandbox !== undefined && sandbox !== 'workspace' && sandbox !== 'off')
      throw new UsageError(`--sandbox is workspace or off, not '${sandbox}'`);
    // On another host the daemon cannot read this host's files or folders: send the brief's text, and no cwd.
    const onHost = Boolean(io.env.SVC_REMOTE_HOST);
    // An agent's brief is read here, as the agent sees it (inside its sandbox), never by the
    // daemon with the person's rights (server/util/laneFileRead.ts).
    const asAgent = Boolean(io.env.SVC_CONVERSATION || io.env.SVC_SOCKET);
    const briefFile = abs(io, str(a, 'brief'));
    const briefText = (onHost || asAgent) && briefFile !== undefined ? readBriefHere(briefFile) : undefined;
    const record = await withDaemon(io, (c) =>
      c.request(lanesStart, {
        caller: io.env.SVC_CONVERSATION || undefined,
        key: str(a, 'key'),
        for: str(a, 'for'),
        role: role as Role,
        brief: briefText === undefined ? briefFile : undefined,
        prompt: briefText ?? str(a, 'prompt'),
        run: str(a, 'run'),
        parent: str(a, 'parent'),
        project: str(a, 'project'),
        model: str(a, 'model'),
        harness: str(a, 'harness'),
        effort: str(a, 'effort') as never,
        title: str(a, 'title'),
        branch: str(a, 'branch'),
        from: str(a, 'from'),
        at: str(a, 'at'),
        reuse: bool(a, 'reuse') || undefined,
        replace: bool(a, 'replace') || undefined,
        noWait: bool(a, 'no-wait') || undefined,
        host: str(a, 'host'),
        budget: usdFlag(str(a, 'budget'), '--budget'),
        sandbox,
        cwd: onHost ? undefined : io.cwd,
      }),
    );
    if (bool(a, 'json')) printJson(io, record);
    else io.out(laneStartLine(record) + '\n');
    const trouble = laneStartTrouble(record, !bool(a, 'no-wait'));
    if (trouble) {
      io.err(trouble + '\n');
      return 1;
    }
    return 0;
  },
};

const laneList: CommandSpec = {
  path: ['lane', 'list'],
  summary: 'list lanes with activity, reports, verdicts and git facts',
  usage: ['[--run <key>] [--parent <conv>] [--json]'],
  flags: {
    run: { type: 'string', help: 'only this run', value: '<key>' },
    parent: { type: 'string', help: 'only lanes launched by this conversation', value: '<conv>' },
    ...JSON_FLAG,
  },
  async run(a, io) {
    const { lanes } = await withDaemon(io, (c) =>
      c.request(lanesList, { run: str(a, 'run'), parent: str(a, 'parent') }),
    );
    if (bool(a, 'json')) printJson(io, lanes);
    else io.out(laneTable(lanes));
    return 0;
  },
};

const laneShow: CommandSpec = {
  path: ['lane', 'show'],
  summary: 'the builder-to-critic chain of a lane’s run and key, then one line per lane',
  usage: ['(<lane> | --run <key> --key <key>) [--json]'],
  flags: {
    run: { type: 'string', help: 'the run', value: '<key>' },
    key: { type: 'string', help: 'the lane key', value: '<key>' },
    ...JSON_FLAG,
  },
  positionals: [{ name: 'lane' }],
  details:
    'Chain: i1 built → critic c1: NOT_YET (2 defects) → i2 built → critic c2: PASS\nLines: #<id> <role> i<n> <activity> <verdict> <verdict file>',
  async run(a, io) {
    const r = await withDaemon(io, (c) =>
      c.request(lanesShow, { lane: a.positionals[0], run: str(a, 'run'), key: str(a, 'key') }),
    );
    if (bool(a, 'json')) printJson(io, r);
    else io.out([r.chain, ...r.lines].join('\n') + '\n');
    return 0;
  },
};

/** Exit codes of wait and report (spec Errors table). */
export const statusExit = (s: ReportStatus) => (s === 'done' ? 0 : 4);

const laneWait: CommandSpec = {
  path: ['lane', 'wait'],
  summary: 'wait for the next report of a lane, or of any lane of a run or parent (oldest first)',
  usage: [
    '<lane> [--after <seq>] [--timeout <s>]',
    '(--run <key> | --parent <conv>) [--after <cursor>] [--timeout <s>]',
  ],
  flags: {
    run: { type: 'string', help: 'wait on every lane of this run', value: '<key>' },
    parent: { type: 'string', help: 'wait on every lane launched by this conversation', value: '<conv>' },
    after: {
      type: 'string',
      help: 'one lane: a report number; a set: a cursor <atMs>.<name>.<seq>',
      value: '<cursor>',
    },
    timeout: { type: 'int', help: 'give up after this many seconds (default 300)', value: '<s>' },
  },
  positionals: [{ name: 'lane' }],
  details:
    'The report body goes to stdout; the next command, with the new cursor, to stderr as `next: …`.\nExit: 0 done · 4 blocked or failed (body printed) · 2 the lane exited, or sat idle 10 minutes, without a report · 3 timeout, lane still running · 1 usage or request error.',
  async run(a, io) {
    const timeout = int(a, 'timeout');
    if (timeout !== undefined && timeout < 0) throw new UsageError('--timeout must be 0 or more');
    const r = await withDaemon(io, (c) =>
      c.request(lanesWait, {
        lane: a.positionals[0],
        run: str(a, 'run'),
        parent: str(a, 'parent'),
        after: str(a, 'after'),
        timeoutS: timeout,
      }),
    );
    let code: number;
    if (r.outcome === 'report' && r.report) {
      const v = r.report.verdict ? ` · verdict ${r.report.verdict} (${defectCount(r.report.defects ?? 0)})` : '';
      io.err(`${r.lane} reported ${r.report.status}${v}\n`);
      io.out(r.report.body.endsWith('\n') || r.report.body === '' ? r.report.body : r.report.body + '\n');
      code = statusExit(r.report.status);
    } else if (r.outcome === 'silent') {
      io.err(`${r.lane} ${r.why === 'idle' ? 'sat idle for 10 minutes' : 'exited'} without a report\n`);
      code = 2;
    } else {
      io.err('timed out; the lane is still running\n');
      code = 3;
    }
    io.err(`next: ${r.next}\n`);
    return code;
  },
};

async function reportBody(a: Parsed, io: CliIo): Promise<string> {
  const file = str(a, 'file');
  if ((file === undefined) === !bool(a, 'stdin')) throw new UsageError('pass exactly one of --file <path> or --stdin');
  if (file === undefined) return io.stdin();
  const p = path.resolve(io.cwd, file);
  try {
    if (!fs.statSync(p).isFile()) throw new UsageError(`${p} is not a file`);
    return fs.readFileSync(p, 'utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Refused here, in words, before the daemon's frame limit would drop the connection. */
function checkReportSize(body: string): string {
  if (body.length > REPORT_BODY_MAX)
    throw new UsageError(
      `the report body is ${body.length} characters, more than the ${REPORT_BODY_MAX} a report may hold; put the detail in a file and name it in the report`,
    );
  return body;
}

const laneReport: CommandSpec = {
  path: ['lane', 'report'],
  summary: 'file this lane’s report (run inside a lane)',
  usage: [
    '(--file <path> | --stdin) [--status done|blocked|failed] [--allow-unpushed]',
    '  [--verdict <value>] [--defects <n>] [--verdict-file <path>]',
  ],
  flags: {
    file: { type: 'string', help: 'the report body, a Markdown file', value: '<path>' },
    stdin: { type: 'boolean', help: 'read the report body from standard input' },
    status: {
      type: 'string',
      help: 'done (default), blocked (body starts RULING, SPEND, ONE-WAY or BLOCKED) or failed',
      value: '<s>',
    },
    'allow-unpushed': {
      type: 'boolean',
      help: 'builder: report done although the upstream lacks commits (never waives the clean-tree check)',
    },
    verdict: { type: 'string', help: 'critic/verifier: WOWED, IMPRESSED, NOT_YET, PASS or DEFECTS', value: '<value>' },
    defects: {
      type: 'int',
      help: 'the defect count (default: the length of the verdict file’s defects array)',
      value: '<n>',
    },
    'verdict-file': { type: 'string', help: 'a JSON file with a `defects` array', value: '<path>' },
  },
  details: 'Exit 0 for a done report, 4 for blocked or failed, 1 when refused (e.g. `not inside a lane`).',
  async run(a, io) {
    const status = (str(a, 'status') ?? 'done') as ReportStatus;
    if (!['done', 'blocked', 'failed'].includes(status))
      throw new UsageError(`--status must be done, blocked or failed, got '${status}'`);
    const body = checkReportSize(await reportBody(a, io));
    const params = {
      caller: io.env.SVC_CONVERSATION || undefined,
      status,
      body,
      verdict: str(a, 'verdict') as Verdict | undefined,
      defects: int(a, 'defects'),
      verdictFile: abs(io, str(a, 'verdict-file')),
      allowUnpushed: bool(a, 'allow-unpushed') || undefined,
      requestId: globalThis.crypto.randomUUID(), // the global: node:crypto loads only when used
    };
    const r = await retryOnConnectionLost(() => withDaemon(io, (c) => c.request(lanesReport, params)));
    const v = r.report.verdict ? ` · verdict ${r.report.verdict} (${defectCount(r.report.defects ?? 0)})` : '';
    io.out(`Report ${r.report.seq} filed for ${r.lane}: ${r.report.status}${v}\n`);
    return statusExit(r.report.status);
  },
};

const laneStop: CommandSpec = {
  path: ['lane', 'stop'],
  summary: 'stop a lane through the conversation stop door',
  usage: ['<lane>'],
  flags: {},
  positionals: [{ name: 'lane', required: true }],
  async run(a, io) {
    const r = await withDaemon(io, (c) => c.request(lanesStop, { lane: a.positionals[0] }));
    if (!r.stopped) {
      io.err(`lane ${r.lane} did not stop within 30 s; escalate with svc conv stop --kill ${r.lane}\n`);
      return 1;
    }
    io.out(`Lane ${r.lane} stopped\n`);
    return 0;
  },
};

const laneReap: CommandSpec = {
  path: ['lane', 'reap'],
  summary: 'stop a lane, remove its directory and archive it — never killing a process, never losing work',
  usage: ['<lane> [--park] [--keep]'],
  flags: {
    park: { type: 'boolean', help: 'save uncommitted work to a verified patch beside the brief, then clean the tree' },
    keep: { type: 'boolean', help: 'leave the conversation listed in the Command Deck (no archive)' },
  },
  positionals: [{ name: 'lane', required: true }],
  details:
    'Refused, with nothing changed, while the harness is alive 30 s after the stop request, for a directory outside the lanes root, while a process works inside it, or for a dirty tree without --park. The branch is always kept.',
  async run(a, io) {
    const r = await withDaemon(io, (c) =>
      c.request(lanesReap, { lane: a.positionals[0], park: bool(a, 'park'), keep: bool(a, 'keep') }),
    );
    io.out(formatReapReport(r) + '\n');
    return 0;
  },
};

const laneRuns: CommandSpec = {
  path: ['lane', 'runs'],
  summary: 'the Awareness rail: one card per gauntlet run with its counts and latest event, and the landing queues',
  usage: ['[--json]'],
  flags: { ...JSON_FLAG },
  async run(a, io) {
    const { cards } = await withDaemon(io, (c) => c.request(lanesRuns, {}));
    const queue = formatLandingQueue(cards);
    if (bool(a, 'json')) printJson(io, cards);
    else if (!cards.length) io.out('no gauntlet runs\n');
    else
      io.out(
        table(
          ['PROJECT', 'RUN', 'LAUNCHER', 'COUNTS', 'SPEND', 'LATEST'],
          cards.map((c) => [
            c.project,
            c.run,
            `#${c.launcherId}`,
            c.countsLine,
            c.spend.text,
            `${new Date(c.latest.at).toISOString()} ${c.latest.text}`,
          ]),
        ) + (queue && `\n${queue}`),
      );
    return 0;
  },
};

/** An amount of US dollars from the command line (`1.50`, `$1.50`). */
function usdFlag(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const r = parseUsd(v);
  if ('why' in r)
    throw new UsageError(
      /at most/.test(r.why)
        ? `${flag}: ${r.why}; got '${v}'`
        : `${flag} takes an amount of US dollars above 0, like 2.50; got '${v}'`,
    );
  return r.usd;
}

const laneBudget: CommandSpec = {
  path: ['lane', 'budget'],
  summary: 'set or raise the spend cap of a lane (or of a run); a lane stopped at its cap goes on',
  usage: ['<lane> <usd>', '--run <key> [--project <key>] <usd>'],
  flags: {
    run: {
      type: 'string',
      help: 'set the run’s cap instead (every lane of the run with its successors)',
      value: '<key>',
    },
    project: { type: 'string', help: 'the run’s project, when runs of several projects share the key', value: '<key>' },
    ...JSON_FLAG,
  },
  positionals: [{ name: 'lane' }, { name: 'usd' }],
  details:
    'A person may set any cap; an agent only the caps of lanes it launched (or that conversations it launched launched). A lane stopped at a cap that the new cap frees is told to carry on.\nExit 0 when set, 1 when refused.',
  async run(a, io) {
    const run = str(a, 'run');
    const [first, second] = a.positionals;
    if (run !== undefined ? second !== undefined : second === undefined)
      throw new UsageError('usage: svc lane budget <lane> <usd>, or svc lane budget --run <key> <usd>');
    const usd = usdFlag(run !== undefined ? first : second, 'the amount')!;
    const r = await withDaemon(io, (c) =>
      c.request(lanesBudget, {
        caller: io.env.SVC_CONVERSATION || undefined,
        lane: run === undefined ? first : undefined,
        run,
        project: str(a, 'project'),
        usd,
      }),
    );
    if (bool(a, 'json')) printJson(io, r);
    else {
      io.out(`Spend cap of ${r.target}: ${formatCost(r.cap)} (spent ${formatCost(r.spent)})\n`);
      for (const name of r.released) io.out(`${name} may take turns again; it was told to carry on\n`);
      for (const h of r.stillHeld) io.out(`${h.lane} is still stopped at its ${h.text}\n`);
    }
    return 0;
  },
};

export const laneCommands: CommandSpec[] = [
  laneStart,
  laneList,
  laneShow,
  laneWait,
  laneReport,
  laneStop,
  laneReap,
  laneRuns,
  laneBudget,
];
