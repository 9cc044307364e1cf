// The commands dist/svc.js runs without loading the full command line (see entry.ts): the
// daemon commands, whose module is small. A hot command must be the one the full command
// line would pick for the same words (a unit test checks it against the registry).
import type { CommandSpec } from './cli';
import { daemonCommands } from './commands/daemon';

export const HOT_COMMANDS: CommandSpec[] = daemonCommands;

/** The hot command `argv` names, with the words after its path; undefined for any other. */
export function hotCommand(argv: string[]): { spec: CommandSpec; rest: string[] } | undefined {
  const spec = HOT_COMMANDS.find((c) => c.path.every((p, i) => argv[i] === p));
  return spec && { spec, rest: argv.slice(spec.path.length) };
}
