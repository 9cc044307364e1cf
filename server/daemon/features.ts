// Every feature of the daemon, registered in one place. Add a feature here.
import type { App } from '../app';
import { registerDaemonMethods } from './daemonMethods';
import { registerProjects } from '../projects/projectMethods';

export function registerFeatures(app: App, stop: (reason: string) => Promise<void>): void {
  registerDaemonMethods(app, stop, () => ({ conversations: 0, live: 0 }));
  registerProjects(app);
}
