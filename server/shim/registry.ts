// Every shim command. Add a feature's command list here.
import type { CommandSpec } from './cli';
import { agentCommands } from './commands/agents';
import { configCommands } from './commands/config';
import { convCommands } from './commands/conv';
import { daemonCommands } from './commands/daemon';
import { laneCommands } from './commands/lane';
import { prCommands } from './commands/pr';
import { projectCommands } from './commands/project';
import { skillCommands } from './commands/skill';

export const COMMANDS: CommandSpec[] = [...daemonCommands, ...projectCommands, ...convCommands, ...agentCommands, ...laneCommands, ...prCommands, ...skillCommands, ...configCommands];
