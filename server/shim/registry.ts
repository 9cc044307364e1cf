// Every shim command. Add a feature's command list here.
import type { CommandSpec } from './cli';
import { daemonCommands } from './commands/daemon';
import { projectCommands } from './commands/project';

export const COMMANDS: CommandSpec[] = [...daemonCommands, ...projectCommands];
