// The shim's command model: each command is declared once (path, flags, positionals,
// help) and the parser, `--help`, and the skill's no-drift test all read the same table.
import { nearest } from './didYouMean';
import { jsonTerminalSafe } from '../shared/format/terminalText';

export type FlagType = 'string' | 'boolean' | 'int';

export interface FlagSpec {
  type: FlagType;
  help: string;
  short?: string;
  /** Value placeholder shown in help, e.g. `<file>`. */
  value?: string;
  /** A string flag's only values: any other is refused naming them all, in the person's words. */
  choices?: readonly string[];
}

export interface PositionalSpec {
  name: string;
  required?: boolean;
  /** Collects every remaining positional. */
  rest?: boolean;
}

export interface Parsed {
  flags: Record<string, string | boolean | number | undefined>;
  positionals: string[];
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdin(): Promise<string>;
}

export interface CommandSpec {
  path: string[];
  summary: string;
  /** Synopsis lines after `svc <path>`. */
  usage: string[];
  flags: Record<string, FlagSpec>;
  positionals?: PositionalSpec[];
  details?: string;
  run(args: Parsed, io: CliIo): Promise<number>;
}

export class UsageError extends Error {}

/** `unknown flag --tilte (did you mean --title?)`: the nearest flag of the command, when one is near. */
function unknownFlag(spec: CommandSpec, given: string): UsageError {
  const guess = nearest(given.replace(/^-+/, ''), Object.keys(spec.flags));
  return new UsageError(`unknown flag ${given}${guess ? ` (did you mean --${guess}?)` : ''}`);
}

/**
 * An extra word that was meant as a flag is pointed at it: the flag's name without its
 * dashes (`answer 2 allow` → `--allow`), `name=value` (`role=critic` → `--role critic`),
 * one of a flag's choices (`critic` → `--role critic`), or a near miss of a flag's name
 * (`alow` → `--allow`).
 */
function unexpectedArgument(spec: CommandSpec, word: string): UsageError {
  const hint = flagMeant(spec, word);
  return new UsageError(`unexpected argument '${word}'${hint ? `; did you mean ${hint}?` : ''}`);
}

function flagMeant(spec: CommandSpec, word: string): string | undefined {
  const written = (name: string, value?: string) => {
    const f = spec.flags[name];
    return f.type === 'boolean' ? `--${name}` : `--${name} ${value ?? f.value ?? '<value>'}`;
  };
  if (Object.hasOwn(spec.flags, word)) return written(word);
  const eq = word.indexOf('=');
  if (eq > 0 && Object.hasOwn(spec.flags, word.slice(0, eq)) && spec.flags[word.slice(0, eq)].type !== 'boolean')
    return written(word.slice(0, eq), word.slice(eq + 1));
  const choosing = Object.keys(spec.flags).filter((n) => spec.flags[n].choices?.includes(word));
  if (choosing.length === 1) return written(choosing[0], word);
  if (word.length < 3 || eq >= 0) return undefined;
  const near = nearest(word, Object.keys(spec.flags));
  return near ? written(near) : undefined;
}

export function parseArgs(spec: CommandSpec, argv: string[]): Parsed {
  const flags: Parsed['flags'] = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(spec.flags)
      .filter(([, f]) => f.short)
      .map(([n, f]) => [f.short!, n]),
  );
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (onlyPositionals || a === '-' || !a.startsWith('-')) {
      positionals.push(a);
      continue;
    }
    if (a === '--') {
      onlyPositionals = true;
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      inline = eq > 0 ? a.slice(eq + 1) : undefined;
    } else {
      const long = byShort.get(a.slice(1));
      if (!long) throw unknownFlag(spec, a);
      name = long;
    }
    const f = spec.flags[name];
    if (!f) throw unknownFlag(spec, `--${name}`);
    if (flags[name] !== undefined) throw new UsageError(`--${name} given twice`);
    if (f.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (f.type === 'int') {
      if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} needs a whole number, got '${value}'`);
      flags[name] = Number(value);
    } else if (f.choices && !f.choices.includes(value)) {
      throw new UsageError(`unknown ${name} '${value}' (${f.choices.join(', ')})`);
    } else flags[name] = value;
  }
  const specs = spec.positionals ?? [];
  const rest = specs.find((p) => p.rest);
  if (!rest && positionals.length > specs.length) throw unexpectedArgument(spec, positionals[specs.length]);
  specs.forEach((p, i) => {
    if (p.required && positionals[i] === undefined) throw new UsageError(`missing <${p.name}>`);
  });
  return { flags, positionals };
}

export function helpText(spec: CommandSpec): string {
  const lines = [`svc ${spec.path.join(' ')} — ${spec.summary}`, '', 'Usage:'];
  for (const u of spec.usage) lines.push(`  svc ${spec.path.join(' ')}${u ? ' ' + u : ''}`);
  const flagNames = Object.keys(spec.flags);
  if (flagNames.length) {
    lines.push('', 'Flags:');
    const rows = flagNames.map((n) => {
      const f = spec.flags[n];
      const left = `${f.short ? `-${f.short}, ` : ''}--${n}${f.type === 'boolean' ? '' : ` ${f.value ?? (f.type === 'int' ? '<n>' : '<value>')}`}`;
      return [left, f.help] as const;
    });
    const width = Math.max(...rows.map(([l]) => l.length));
    for (const [l, h] of rows) lines.push(`  ${l.padEnd(width)}  ${h}`);
  }
  if (spec.details) lines.push('', spec.details);
  return lines.join('\n') + '\n';
}

/** Common accessors, so commands read flags with their types. */
export const str = (a: Parsed, n: string): string | undefined => a.flags[n] as string | undefined;
export const bool = (a: Parsed, n: string): boolean => a.flags[n] === true;
export const int = (a: Parsed, n: string): number | undefined => a.flags[n] as number | undefined;
export const JSON_FLAG: Record<string, FlagSpec> = { json: { type: 'boolean', help: 'print JSON instead of text' } };

/** What `--json` prints: the value indented by two, ending in a newline, the same in every command. */
export const jsonText = (v: unknown): string => jsonTerminalSafe(JSON.stringify(v, null, 2)) + '\n';
export const printJson = (io: Pick<CliIo, 'out'>, v: unknown): void => io.out(jsonText(v));
