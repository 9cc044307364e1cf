// Awareness rail cards (docs/spec.md: derived on every read, nothing stored): one card per
// gauntlet run, grouped by project and run key, with the counts line and latest event.
import { ACTIVITIES } from '../../shared/activity';
import { ROLES } from '../../shared/config';
import type { RunCard } from '../../shared/protocol/lanes';
import { queuedLandingsByRun } from '../land/runQueue';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { laneActivity } from './records';
import { capText, NEAR_SHARE, SpendBook } from './spend';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function latestEvent(ctx: LanesContext, lanes: LaneRow[]): RunCard['latest'] {
  let latest: RunCard['latest'] = { at: 0, text: '', kind: 'launch' };
  const consider = (at: number, kind: RunCard['latest']['kind'], text: string) => {
    if (at >= latest.at) latest = { at, kind, text };
  };
  for (const l of lanes) {
    // run/key, as `svc lane start` names a lane: two keys of one run each have a builder i1.
    const tag = `${l.run}/${l.key} ${l.role} i${l.iteration}`;
    consider(l.createdAt, 'launch', `${tag} launched`);
    if (l.spawnError !== null) consider(l.endedAt ?? l.createdAt, 'failed-start', `${tag} failed to start`);
    else if (l.endedAt !== null) consider(l.endedAt, 'end', `${tag} ended`);
    for (const r of ctx.store.reports(l.id)) {
      consider(r.at, 'report', `${tag} reported ${r.status}${r.verdict ? ` · verdict ${r.verdict}` : ''}`);
    }
  }
  return latest;
}

export function runCards(ctx: LanesContext): RunCard[] {
  const groups = new Map<string, LaneRow[]>();
  const all = ctx.store.all();
  for (const l of all) {
    const id = `${l.project}\0${l.run}`;
    groups.set(id, [...(groups.get(id) ?? []), l]);
  }
  const cards: RunCard[] = [];
  const landings = queuedLandingsByRun(ctx.app.db);
  const book = new SpendBook(
    ctx,
    [...groups.values()].map((g) => g[0].run),
    all, // every lane: the book's runs whole, in launch order
  );
  for (const lanes of groups.values()) {
    const counts: Record<string, number> = {};
    for (const l of lanes) {
      counts[l.role] = (counts[l.role] ?? 0) + 1;
      const a = laneActivity(ctx, l);
      counts[a] = (counts[a] ?? 0) + 1;
    }
    const parts = [
      ...ROLES.filter((r) => counts[r]).map((r) => plural(counts[r], r)),
      ...ACTIVITIES.filter((a) => counts[a]).map((a) => `${counts[a]} ${a}`),
    ];
    const first = lanes[0];
    const launcher = ctx.conversations.get(first.parentId);
    cards.push({
      project: first.project,
      run: first.run,
      launcherId: first.parentId,
      launcherName: launcher?.name ?? `#${first.parentId}`,
      lanes: lanes.length,
      counts,
      countsLine: parts.join(' · '),
      latest: latestEvent(ctx, lanes),
      spend: runSpend(book, lanes),
      landings: landings.get(`${first.project}\0${first.run}`) ?? [],
    });
  }
  return cards.sort((a, b) => a.project.localeCompare(b.project) || a.run.localeCompare(b.run));
}

/** The run's spend against its cap, and how many of its lanes a cap stops. */
function runSpend(book: SpendBook, lanes: LaneRow[]): RunCard['spend'] {
  const cap = book.runCap(lanes[0].project, lanes[0].run);
  const reached = lanes.filter((l) => book.heldBy(l) !== null && book.newest(l).id === l.id).length;
  const near = cap.cap !== null && cap.spent >= cap.cap * NEAR_SHARE;
  const text = `${cap.cap === null ? `${capText(cap)} spent` : `${capText(cap)}${near && cap.spent < cap.cap ? ' — near the cap' : ''}`}${reached ? ` · ${reached} stopped at a cap` : ''}`;
  return { ...cap, text, reached };
}
