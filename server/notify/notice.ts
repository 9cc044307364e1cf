// Notices new inbox items for the targets: reads the inbox (nothing about it is stored),
// and enqueues in the outbox each (target, item) of a kind the target wants that was not
// enqueued before: the outbox's unique key is the memory of what was seen, so a restart
// neither forgets nor repeats. Cheap by construction: nothing runs while no target is
// configured, and a burst of daemon events (output, activity, reports) makes one read.
import type { NotifyTarget } from '../../shared/config';
import { ALL_NOTIFY_ITEM_KINDS } from '../../shared/config';
import type { InboxItem } from '../../shared/protocol/inbox';
import type { Inbox } from '../inbox/inboxMethods';
import type { Logger } from '../util/log';
import { eventKey } from './outbox';
import type { Outbox } from './outbox';

/** A burst of events within this becomes one read of the inbox: at most one a second while agents are busy. */
export const NOTICE_COALESCE_MS = 1000;
/** Besides the daemon's own events: the slow timer that catches what no event announced. */
export const NOTICE_SWEEP_MS = 60_000;

/** The (target, item) pairs the targets want, in the targets' order. */
export function wanted(targets: readonly NotifyTarget[], items: readonly InboxItem[]) {
  return targets.flatMap((t) => {
    const kinds = new Set(t.kinds ?? ALL_NOTIFY_ITEM_KINDS);
    return items.filter((i) => kinds.has(i.kind)).map((item) => ({ target: t.name, item }));
  });
}

export interface NoticeDeps {
  inbox: Inbox;
  outbox: Outbox;
  targets: () => readonly NotifyTarget[];
  now: () => number;
  /** Called when new events were enqueued. */
  enqueued: () => void;
  log: Logger;
}

export function startNoticing(d: NoticeDeps): { stop(): void; now(): Promise<void> } {
  let pending: NodeJS.Timeout | undefined;
  let reading: Promise<void> | undefined;
  let stopped = false;
  const evaluate = async (): Promise<void> => {
    const targets = d.targets();
    if (!targets.length) return;
    const { items } = await d.inbox.read();
    const now = d.now();
    if (d.outbox.enqueue(wanted(targets, items), now) > 0) d.enqueued();
    d.outbox.prune(new Set(items.map(eventKey)), now);
  };
  let again = false;
  // A change seen while a read runs makes one more read after it.
  const run = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = evaluate()
      .catch((e: unknown) => d.log.error('reading the inbox for notify targets failed', e))
      .finally(() => {
        reading = undefined;
        if (again && !stopped) {
          again = false;
          void run();
        }
      });
    return reading;
  };
  const soon = () => {
    if (stopped || pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      void run();
    }, NOTICE_COALESCE_MS);
  };
  const off = d.inbox.onMaybeChanged(soon);
  const sweep = setInterval(soon, NOTICE_SWEEP_MS);
  sweep.unref();
  soon();
  return {
    now: run,
    stop() {
      stopped = true;
      off();
      clearInterval(sweep);
      if (pending) clearTimeout(pending);
    },
  };
}
