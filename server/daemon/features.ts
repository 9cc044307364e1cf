// Every feature of the daemon, registered in one place. Add a feature here. Features hand
// each other their services explicitly: what one needs of another is an argument here,
// never looked up on the App. Their tables come first: the daemon opens the store with
// every feature's migrations (featureMigrations) before any feature registers, since a
// feature's service reads its tables as it is made.
import type { App } from '../app';
import { codeHostMigrations } from '../codehost/migrations';
import { conversationMigrations } from '../conversations/migrations';
import { issueMigrations } from '../issues/migrations';
import { landMigrations } from '../land/migrations';
import { laneMigrations } from '../lanes/migrations';
import { notifyMigrations } from '../notify/migrations';
import { openDb } from '../store/db';
import type { Db } from '../store/db';
import { storeMigrations } from '../store/migrations';
import type { Migration } from '../store/migrations';
import { registerDaemonMethods } from './daemonMethods';
import { registerProjects } from '../projects/projectMethods';
import { registerCodeHost } from '../codehost/registerCodeHost';
import { registerConversations } from '../conversations/conversationMethods';
import { registerTranscript } from '../conversations/transcriptMethods';
import { registerLanes } from '../lanes/laneMethods';
import { registerLand } from '../land/landMethods';
import { registerPick } from '../land/pickMethods';
import { tellAfterBaseMoved } from '../land/siblings';
import { registerConfig } from '../config/configMethods';
import { registerReview } from '../review/registerReview';
import { registerIssueMethods } from '../issues/issueMethods';
import { IssueStore } from '../issues/issueStore';
import { registerDoctor } from '../doctor/doctorMethods';
import { registerHosts } from '../hosts/hostMethods';
import { resolveProfile } from '../harness/profiles';
import { registerRunRecord } from '../runRecord/runRecordMethods';
import { registerAuthority } from '../authority/registerAuthority';
import { registerInbox } from '../inbox/inboxMethods';
import { registerNotify } from '../notify/notifyMethods';

/** Every feature's migrations; openDb runs them in id order (ranges: server/store/migrations.ts). */
export const featureMigrations: readonly (readonly Migration[])[] = [
  storeMigrations,
  conversationMigrations,
  laneMigrations,
  codeHostMigrations,
  issueMigrations,
  notifyMigrations,
  landMigrations,
];

/** The daemon's store, with every feature's tables. */
export function openFeatureStore(file: string): Db {
  return openDb(file, featureMigrations);
}

export function registerFeatures(app: App, stop: (reason: string) => Promise<void>): void {
  // First, so that at a graceful stop (newest first) the shared SSH connections close after
  // every agent on a host went through the stop door over them.
  const hostLink = registerHosts(
    app,
    (harness) => resolveProfile(harness, app.config.config(), app.distDir, app.paths.config).command,
  );
  const conversations = registerConversations(app, hostLink);
  registerTranscript(app, conversations);
  registerDaemonMethods(app, stop, () => conversations.counts());
  registerProjects(app);
  const codeHosts = registerCodeHost(app);
  const lanes = registerLanes(app, conversations, hostLink);
  // A landing or a merge through svc moves a base: builders whose branch now conflicts with it are told.
  const land = registerLand(app, {
    conversations,
    lanes: lanes.store,
    hosts: codeHosts,
    afterLanding: (landing) => tellAfterBaseMoved(lanes, landing.project),
  });
  registerPick(app, { conversations, lanes: lanes.store });
  codeHosts.onBaseMoved(({ project }) => tellAfterBaseMoved(lanes, project));
  registerConfig(app);
  const issues = new IssueStore(app.db);
  const review = registerReview(app, { conv: conversations, hosts: codeHosts, issues });
  registerIssueMethods(app, { conv: conversations, issues, hosts: codeHosts, review });
  registerRunRecord(app, {
    lanes,
    conversation: (id) => {
      const row = conversations.get(id);
      if (!row) return undefined;
      const info = conversations.info(row);
      return { ...info, cost: info.cost?.amount ?? null };
    },
    successorsOf: (ids) => {
      const rows = conversations.list({ archived: true });
      const found: number[] = [];
      let frontier = new Set(ids);
      while (frontier.size) {
        const next = rows
          .filter((r) => r.kind === 'successor' && r.parentId !== null && frontier.has(r.parentId))
          .map((r) => r.id);
        found.push(...next);
        frontier = new Set(next);
      }
      return found;
    },
    issueOf: (id) => conversations.get(id)?.issueId ?? undefined,
    issue: (id) => issues.get(id),
    landings: (ids) => land.store.ofLanes(ids),
  });
  const inbox = registerInbox(app, { conv: conversations, lanes, issues });
  const notify = registerNotify(app, inbox);
  registerDoctor(
    app,
    () => conversations.counts().live,
    () => notify.checks(),
  );
  // Last: it checks every method registered above has a row.
  registerAuthority(app, { conv: conversations, issues });
}
