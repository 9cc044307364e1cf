// The `svc` command line. Its own small bundle (dist/svcCommands.js, loaded by dist/svc.js
// for every command but the hot ones): it never loads the daemon's modules or any package,
// only shared/ contracts and their small JSON-RPC client, so it starts fast.
// Exit codes: 0 success; 1 usage or request error; commands may define more (lane wait).
import { SVC_VERSION } from '../shared/version';
import type { CliIo, CommandSpec } from './cli';
import { COMMANDS } from './registry';
import { runSpec } from './runSpec';
import { nearest } from './didYouMean';

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

/** `; did you mean 'svc lane start'?` for a mistyped word after a known prefix, when one command word is near. */
function commandGuess(argv: string[], prefix: string[]): string {
  const words = [
    ...new Set(COMMANDS.filter((c) => prefix.every((p, i) => c.path[i] === p)).map((c) => c.path[prefix.length])),
  ].filter((w): w is string => w !== undefined);
  const guess = nearest(argv[prefix.length], words);
  return guess ? `; did you mean 'svc ${[...prefix, guess].join(' ')}'?` : '';
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
    io.err(
      `svc: unknown command '${argv.slice(0, prefix.length + 1).join(' ')}'${commandGuess(argv, prefix)} (see svc --help)\n`,
    );
    return 1;
  }
  return runSpec(spec, rest, io);
}
