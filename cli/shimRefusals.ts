// The refusals the shim makes itself, without asking the daemon, each message made here
// and nowhere else (docs/style.md §16). They are DaemonRefusals so that they print and exit like
// the daemon's own. Reasons: shared/refusals/daemon.ts.
import { DaemonRefusal } from '../shared/client/daemonRefusal';

/** A stop that would end live agents without --force: how many, and that --force stops them (each continues later with svc conv resume). */
export function liveAgentsRefusal(live: number, verb: 'stop' | 'restart'): DaemonRefusal<'liveAgents'> {
  const them = live === 1 ? 'it' : 'them';
  return new DaemonRefusal(
    `${live} live agent${live === 1 ? '' : 's'} would stop with the daemon; svc daemon ${verb} --force stops ${them} (svc conv resume continues each one later)`,
    'liveAgents',
    'refused',
  );
}

export function unknownProjectRefusal(key: string): DaemonRefusal<'unknownProject'> {
  return new DaemonRefusal(`unknown project '${key}' (see svc project list)`, 'unknownProject', 'notFound');
}

/** `svc install-cli`/`uninstall-cli` will not touch a file that is not svc's launcher, nor write outside home (the words: shared/cli/installCli.ts). */
export function cliLinkRefusal(
  message: string,
  reason: 'cliLinkTaken' | 'cliLinkOutsideHome',
): DaemonRefusal<'cliLinkTaken' | 'cliLinkOutsideHome'> {
  return new DaemonRefusal(message, reason, 'refused');
}

/** `svc inbox answer` of an item that is not waiting (answered, gone, or never there). */
export function noInboxItemRefusal(id: string): DaemonRefusal<'noInboxItem'> {
  return new DaemonRefusal(
    `no inbox item '${id}' is waiting (it may have been answered or its cause gone; see svc inbox)`,
    'noInboxItem',
    'notFound',
  );
}

/** `svc inbox answer` with an answer the item's kind does not take. */
export function inboxAnswerKindRefusal(id: string, kind: string, takes: string): DaemonRefusal<'inboxAnswerKind'> {
  return new DaemonRefusal(
    `inbox item ${id} is ${kind === 'spend' ? 'a spend hold' : `a ${kind} item`}: it takes ${takes} (its command: see svc inbox)`,
    'inboxAnswerKind',
    'usage',
  );
}
