// What a command acts on, read once where VS Code hands it over. A command is invoked with
// whatever its caller passes: a tree node (Command Deck, Reviews, Inbox), a webview's
// `data-vscode-context`, a link's argument, a number typed in a test, or nothing from the
// palette. The table (commandTable.ts: `takes`) names the kind each command reads; its
// reader turns the untyped argument into that kind, or undefined when it names none (the
// body then asks with a pick). So no body sees `unknown`. No vscode import.

export interface PrTarget {
  /** The issue the PR belongs to; '' when only the PR is known. */
  issue?: string;
  pr?: { number: number; url: string | null; project: string };
}

export interface RunTarget {
  run: string;
  project: string;
}

const isObject = (a: unknown): a is Record<string, unknown> => typeof a === 'object' && a !== null;

/** A conversation id: a tree node's `convId`, a number, or `#5` / `5`. */
export function conversationOf(arg: unknown): number | undefined {
  if (typeof arg === 'number' && Number.isInteger(arg)) return arg;
  if (typeof arg === 'string') {
    const m = /^#?(\d+)$/.exec(arg.trim());
    return m ? Number(m[1]) : undefined;
  }
  if (isObject(arg)) {
    const id = arg.convId;
    return typeof id === 'number' && Number.isInteger(id) ? id : undefined;
  }
  return undefined;
}

/** An issue id: a string, or a Reviews/Inbox row's `issue`. */
export function issueOf(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg) return arg;
  if (isObject(arg) && typeof arg.issue === 'string' && arg.issue) return arg.issue;
  return undefined;
}

/** A report (or verdict) file: a path, or a deck row's `reportFile` / `verdictFile`. */
export function fileOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg || undefined;
  if (!isObject(arg)) return undefined;
  const file = arg.reportFile ?? arg.verdictFile;
  return typeof file === 'string' && file ? file : undefined;
}

/** A PR row's issue and PR. */
export function prOf(arg: unknown): PrTarget {
  if (!isObject(arg)) return {};
  const pr = arg.pr;
  const out: PrTarget = typeof arg.issue === 'string' ? { issue: arg.issue } : {};
  if (
    isObject(pr) &&
    typeof pr.number === 'number' &&
    typeof pr.project === 'string' &&
    (typeof pr.url === 'string' || pr.url === null)
  )
    out.pr = { number: pr.number, url: pr.url, project: pr.project };
  return out;
}

/** The run an Awareness card names. */
export function runOf(arg: unknown): RunTarget | undefined {
  return isObject(arg) && typeof arg.run === 'string' && typeof arg.project === 'string'
    ? { run: arg.run, project: arg.project }
    : undefined;
}

export interface FindingTarget {
  issue: string;
  finding: string;
}

/** A Reviews finding row's issue and finding. */
export function findingOf(arg: unknown): FindingTarget | undefined {
  return isObject(arg) && typeof arg.issue === 'string' && typeof arg.finding === 'string'
    ? { issue: arg.issue, finding: arg.finding }
    : undefined;
}

/** The reader of each kind a command may take (commandTable.ts: `takes`). */
export const ARG_READERS = {
  conversation: conversationOf,
  issue: issueOf,
  file: fileOf,
  pr: prOf,
  run: runOf,
  finding: findingOf,
} as const;

export type ArgKind = keyof typeof ARG_READERS;
export type ArgOf<K extends ArgKind> = ReturnType<(typeof ARG_READERS)[K]>;
