// The notify feature: the outbox, the noticing of new inbox items, the sender, svc
// doctor's checks and `notify/test`. Only the daemon sends, and only to the targets of
// config.yaml, which is the person's file: no method adds or changes a target, and the
// one method that sends (a test notice) is the person's alone (the authority table).
import * as path from 'node:path';
import type { NotifyTarget } from '../../shared/config';
import type { DoctorCheck } from '../../shared/protocol/doctor';
import { notifyTest } from '../../shared/protocol/notify';
import type { App } from '../app';
import type { Inbox } from '../inbox/inboxMethods';
import { logger } from '../util/log';
import { retryBaseFromEnv } from './backoff';
import { deliver } from './deliver';
import { notifyChecks } from './notifyCheck';
import { unknownNotifyTargetError } from './notifyRefusals';
import { startNoticing } from './notice';
import { Outbox } from './outbox';
import { payloadFor, testNotice } from './payloads';
import { Sender } from './sender';

const log = logger('notify');

export interface Notify {
  /** svc doctor's checks of every configured target. */
  checks(): DoctorCheck[];
}

export function registerNotify(app: App, inbox: Inbox): Notify {
  const outbox = new Outbox(app.db);
  let lastProblem = '';
  // A config.yaml that does not parse sends nothing (svc doctor says why) and is logged once.
  const targets = (): readonly NotifyTarget[] => {
    try {
      const t = app.config.config().notify;
      lastProblem = '';
      return t;
    } catch (e) {
      const why = (e as Error).message;
      if (why !== lastProblem) log.warn(`no notify targets while config.yaml is invalid: ${why}`);
      lastProblem = why;
      return [];
    }
  };
  const sender = new Sender({ outbox, targets, now: app.now, retryBaseMs: retryBaseFromEnv(process.env), log });
  const noticing = startNoticing({ inbox, outbox, targets, now: app.now, enqueued: () => sender.kick(), log });
  const offClock = app.clock.onAdvance(() => sender.kick());
  sender.kick();
  app.onStop(async () => {
    offClock();
    noticing.stop();
    await sender.stop();
  });

  app.rpc.handle(notifyTest, async (p, rc) => {
    const all = targets();
    const target = all.find((t) => t.name === p.target);
    if (!target)
      throw unknownNotifyTargetError(
        p.target,
        all.map((t) => t.name),
        shown(app.paths.config),
      );
    const outcome = await deliver(target, payloadFor(target, testNotice(app.now()), app.now()), rc.signal);
    const text = outcome.ok ? `HTTP ${outcome.status}` : 'aborted' in outcome ? 'cancelled' : outcome.error;
    return { target: target.name, kind: target.kind, delivered: outcome.ok, outcome: text };
  });

  return { checks: () => notifyChecks(targets(), outbox.tallies(), shown(app.paths.config)) };
}

/** A path under HOME as `~/…`, as messages show config files elsewhere. */
function shown(file: string): string {
  const home = process.env.HOME;
  return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
