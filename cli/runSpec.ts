// Runs one shim command: its --help, its flags, and every refusal turned into a message and
// exit code 1. Shared by the full command line (main.ts) and the lean entry of the hot
// commands (entry.ts), which must not load the other commands' modules.
import { DiscoveryError } from '../shared/discovery';
import { ConnectionLost } from '../shared/client/connectionLost';
import { DaemonUnavailable } from '../shared/client/ensureDaemon';
import { DaemonRefusal } from '../shared/client/daemonRefusal';
import { helpText, parseArgs, UsageError } from './cli';
import type { CliIo, CommandSpec } from './cli';
import { terminalSafe } from '../shared/format/terminalText';

export async function runSpec(spec: CommandSpec, rest: string[], given: CliIo): Promise<number> {
  // Every command prints through here, and much of what it prints an agent wrote (reports,
  // titles, transcripts, names): no control character reaches the terminal as one.
  const io: CliIo = { ...given, out: (t) => given.out(terminalSafe(t)), err: (t) => given.err(terminalSafe(t)) };
  const flagArgs = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest; // after `--`, '--help' is an argument
  if (flagArgs.includes('--help') || flagArgs.includes('-h')) {
    io.out(helpText(spec));
    return 0;
  }
  try {
    return await spec.run(parseArgs(spec, rest), io);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line and where the help is: the whole help after every typo buries the line that matters.
      const cmd = `svc ${spec.path.join(' ')}`;
      io.err(`${cmd}: ${e.message}\nsee ${cmd} --help\n`);
      return 1;
    }
    if (
      e instanceof DaemonRefusal ||
      e instanceof DiscoveryError ||
      e instanceof DaemonUnavailable ||
      e instanceof ConnectionLost
    ) {
      io.err(`${e.message}\n`);
      return 1;
    }
    io.err(`svc: ${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}
