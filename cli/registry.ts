// Every shim command. Add a feature's command list here.
import type { CommandSpec } from './cli';
import { agentCommands } from './commands/agents';
import { configCommands } from './commands/config';
import { convCommands } from './commands/conv';
import { daemonCommands } from './commands/daemon';
import { doctorCommands } from './commands/doctor';
import { hostCommands } from './commands/host';
import { inboxCommands } from './commands/inbox';
import { installCliCommands } from './commands/installCli';
import { issueCommands } from './commands/issue';
import { landCommands } from './commands/land';
import { laneCommands } from './commands/lane';
import { notifyCommands } from './commands/notify';
import { pickCommands } from './commands/pick';
import { prCommands } from './commands/pr';
import { projectCommands } from './commands/project';
import { reviewCommands } from './commands/review';
import { runCommands } from './commands/run';
import { skillCommands } from './commands/skill';

export const COMMANDS: CommandSpec[] = [
  ...daemonCommands,
  ...projectCommands,
  ...convCommands,
  ...agentCommands,
  ...laneCommands,
  ...landCommands,
  ...pickCommands,
  ...inboxCommands,
  ...notifyCommands,
  ...runCommands,
  ...prCommands,
  ...skillCommands,
  ...configCommands,
  ...issueCommands,
  ...reviewCommands,
  ...doctorCommands,
  ...hostCommands,
  ...installCliCommands,
];
