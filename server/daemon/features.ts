// Every feature of the daemon, registered in one place. Add a feature here.
import type { App } from '../app';
import { registerDaemonMethods } from './daemonMethods';
import { registerProjects } from '../projects/projectMethods';
import { registerCodeHost } from '../codehost/registerCodeHost';
import { registerConversations } from '../conversations/conversationMethods';
import { registerTranscript } from '../conversations/transcriptMethods';
import { registerLanes } from '../lanes/laneMethods';
import { registerConfig } from '../config/configMethods';
import { registerReview } from '../review/registerReview';
import { registerDoctor } from '../doctor/doctorMethods';
import { registerHosts } from '../hosts/hostMethods';
import { hosts } from '../hosts/hosts';

export function registerFeatures(app: App, stop: (reason: string) => Promise<void>): void {
  // First, so that at a graceful stop (newest first) the shared SSH connections close after
  // every agent on a host went through the stop door over them.
  hosts(app);
  const conversations = registerConversations(app);
  registerTranscript(app);
  registerDaemonMethods(app, stop, () => conversations.counts());
  registerProjects(app);
  registerCodeHost(app);
  registerLanes(app, conversations);
  registerConfig(app);
  registerReview(app);
  registerDoctor(app, () => conversations.counts().live);
  registerHosts(app);
}
