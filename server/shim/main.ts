// The `svc` command. Its own small bundle (dist/svc.js): it never loads the daemon's
// modules or any package, only shared/ contracts and their small JSON-RPC client, so it
// starts fast.
// Exit codes: 0 success; 1 usage or request error; commands may define more (lane wait).
import { DiscoveryError } from '../../shared/discovery';
import { ConnectionLost } from '../../shared/client/connectionLost';
import { DaemonUnavailable } from '../../shared/client/ensureDaemon';
import { SVC_VERSION } from '../../shared/version';
import { helpText, parseArgs, UsageError } from './cli';
import type { CliIo, CommandSpec } from './cli';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { COMMANDS } from './registry';

export function findCommand(argv: string[]): { spec?: CommandSpec; rest: string[]; prefix: string[] } {
  let best: CommandSpec | undefined;
  for (const c of COMMANDS) {
    if (c.path.every((p, i) => argv[i] === p) && (!best || c.path.length > best.path.length)) best = c;
  }
  if (best) return { spec: best, rest: argv.slice(best.path.length), prefix: best.path };
  const prefix: string[] = [];
  for (const word of argv) {
    if (!COMMANDS.some((c) => [...prefix, word].every((p, i) => c.path[i] === p))) break;
    prefix.push(word);
  }
  return { rest: argv.slice(prefix.length), prefix };
}

export function overview(prefix: string[] = []): string {
  const list = COMMANDS.filter((c) => prefix.every((p, i) => c.path[i] === p));
  const width = Math.max(...list.map((c) => c.path.join(' ').length));
  const head = prefix.length
    ? `svc ${prefix.join(' ')} — commands:\n`
    : `svc ${SVC_VERSION} — launch, supervise and review AI coding agents\n\nUsage: svc <command> [flags]   (svc <command> --help for one command)\n\nCommands:\n`;
  return head + list.map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`).join('\n') + '\n';
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.out(overview());
    return 0;
  }
  if (argv[0] === '--version') {
    io.out(`svc ${SVC_VERSION}\n`);
    return 0;
  }
  const { spec, rest, prefix } = findCommand(argv);
  if (!spec) {
    if (prefix.length && (rest.length === 0 || rest.includes('--help'))) {
      io.out(overview(prefix));
      return rest.length === 0 ? 1 : 0;
    }
    io.err(`svc: unknown command '${argv.slice(0, prefix.length + 1).join(' ')}' (see svc --help)\n`);
    return 1;
  }
  const flagArgs = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest; // after `--`, '--help' is an argument
  if (flagArgs.includes('--help') || flagArgs.includes('-h')) {
    io.out(helpText(spec));
    return 0;
  }
  try {
    return await spec.run(parseArgs(spec, rest), io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`svc ${spec.path.join(' ')}: ${e.message}\n${helpText(spec)}`);
      return 1;
    }
    if (e instanceof DaemonRefusal || e instanceof DiscoveryError || e instanceof DaemonUnavailable || e instanceof ConnectionLost) {
      io.err(`${e.message}\n`);
      return 1;
    }
    io.err(`svc: ${(e as Error)?.stack ?? String(e)}\n`);
    return 1;
  }
}
