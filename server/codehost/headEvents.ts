// A small typed emitter for head changes; each host owns one and the registry relays
// them. A listener that throws is logged and never stops the others.
import type { HeadChange } from '../../shared/protocol/pr';
import { logger } from '../util/log';
import type { HeadChangeListener } from './codeHost';

const log = logger('codehost');

export class HeadEvents {
  private listeners = new Set<HeadChangeListener>();

  /** `logged` false for a relay of events already logged by the host that emitted them. */
  constructor(private readonly logged = true) {}

  on(fn: HeadChangeListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(change: HeadChange): void {
    if (this.logged)
      log.info(
        `head change ${change.project}#${change.number} ${change.before?.slice(0, 7) ?? 'none'} → ${change.after.slice(0, 7)} (${change.source}${change.action ? ` ${change.action}` : ''})`,
      );
    for (const fn of [...this.listeners]) {
      try {
        fn(change);
      } catch (e) {
        log.error('head change listener failed', e);
      }
    }
  }
}
