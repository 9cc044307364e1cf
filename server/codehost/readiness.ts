// Merge readiness, computed live on every read (spec rule 2; docs/architecture.md §8; docs/codehost.md).
// Pure: the caller fetches the PR, its reviews, comments and checks, and the service's
// identity; nothing here is stored. Rules:
// - per reviewer, the latest APPROVED / CHANGES_REQUESTED / DISMISSED review decides
//   (COMMENTED and PENDING never do);
// - an approval counts only if its commit_id is the head now and its author is not the
//   PR's author; approvals and change requests count only from people who can push to
//   the repository (on a public repository anyone signed in can review);
// - a marker comment `<!-- svc-verdict: … sha=… -->` counts only if the service's own
//   identity wrote it (anyone can paste one) and it was never edited (anyone with write
//   access can edit it, keeping its author); its latest marker decides like a review, and
//   an edited latest marker leaves no marker verdict;
// - the PR must be open, not a draft, and mergeable as far as the host says (conflicts,
//   branch protection, a head behind the base), so a ready PR does not fail at merge;
// - a reviewer whose latest verdict is CHANGES_REQUESTED blocks, whatever commit it was
//   for (as on GitHub, until that reviewer reviews again);
// - checks green: every status / check run success, neutral or skipped (none at all is fine);
// - a review the service posted is for the commit the service reviewed (`reviewed`, from
//   its journal), whatever commit_id the host now reports: GitHub has been seen moving an
//   approval's commit_id forward across base merges (docs/codehost.md);
// - of the service's own verdicts (reviews and markers) only the newest its journal recorded
//   for that commit counts (`newest`): deleting a newer marker brings no older one back;
// - an approval given before the PR's base last changed (`baseChangedAt`) judged another
//   diff and does not count: a base change is a new review target (its change requests
//   still block).
import type { Check, Comment, PullRequest, Readiness, Review, Verdict } from '../../shared/protocol/pr';
import { parseVerdictMarker } from './marker';

export interface ReadinessInput {
  pr: Pick<PullRequest, 'state' | 'draft' | 'author' | 'head' | 'branch' | 'base' | 'mergeable' | 'mergeableState'>;
  /** The identity the service writes as (CodeHost.whoami). */
  identity: string;
  reviews: Review[];
  comments: Comment[];
  checks: Check[];
  /** Review id → the sha the service reviewed, for the reviews it posted on this PR. */
  reviewed?: ReadonlyMap<number, string>;
  /** Commit → the newest verdict the service's journal recorded for it (its id and how it was posted). */
  newest?: ReadonlyMap<string, { id: number; via: string }>;
  /** When the base branch last changed (ISO), if it did. */
  baseChangedAt?: string | null;
}

const GREEN = new Set(['success', 'neutral', 'skipped']);
const PENDING = new Set(['pending', 'queued', 'in_progress', 'waiting', 'requested', 'expected']);

export const short = (sha: string | null): string => (sha ? sha.slice(0, 7) : 'none');

export function checksState(checks: Check[]): Readiness['checks'] {
  if (checks.length === 0) return 'none';
  if (checks.some((c) => !GREEN.has(c.state) && !PENDING.has(c.state))) return 'failing';
  if (checks.some((c) => PENDING.has(c.state))) return 'pending';
  return 'green';
}

/** The verdict that decides for each reviewer (formal reviews) plus the service's latest marker. */
function deciding(input: ReadinessInput, notes: string[]): Verdict[] {
  const latest = new Map<string, Review>();
  for (const r of input.reviews) {
    if (r.state === 'APPROVED' || r.state === 'CHANGES_REQUESTED' || r.state === 'DISMISSED') latest.set(r.author, r);
  }
  const out: Verdict[] = [];
  for (const r of latest.values()) {
    if (r.state === 'DISMISSED') continue;
    if (r.author === input.pr.author) {
      notes.push(`review #${r.id} by ${r.author} ignored: the PR's author`);
      continue;
    }
    if (!r.writeAccess) {
      const what = r.state === 'APPROVED' ? 'approval' : 'change request';
      notes.push(
        `${what} #${r.id} by ${r.author} not counted: ${r.author} cannot push to the repository (author_association ${r.association ?? 'unknown'})`,
      );
      continue;
    }
    const recorded = r.author === input.identity ? input.reviewed?.get(r.id) : undefined;
    if (recorded !== undefined && recorded !== r.commitId) {
      notes.push(
        `review #${r.id} by ${r.author} is for ${short(recorded)}, the commit the service reviewed; the host reports ${short(r.commitId)}`,
      );
    }
    out.push({
      by: r.author,
      state: r.state as Verdict['state'],
      sha: recorded ?? r.commitId,
      via: 'review',
      at: r.submittedAt ?? '',
      id: r.id,
    });
  }
  let marker: Verdict | undefined;
  for (const c of input.comments) {
    const m = parseVerdictMarker(c.body);
    if (!m) continue;
    if (c.author !== input.identity) {
      notes.push(
        `marker comment #${c.id} by ${c.author} ignored: not written by the service identity ${input.identity}`,
      );
      continue;
    }
    if (c.updatedAt !== c.createdAt) {
      notes.push(`marker comment #${c.id} ignored: edited at ${c.updatedAt} after it was written at ${c.createdAt}`);
      marker = undefined;
      continue;
    }
    marker = { by: c.author, state: m.verdict, sha: m.sha, via: 'marker', at: c.createdAt, id: c.id };
  }
  if (marker) out.push(marker);
  return out.filter((v) => recordedAsNewest(input, v, notes) && afterBaseChange(input, v, notes));
}

/** A verdict of the service counts only if its journal records no newer one for the same commit. */
function recordedAsNewest(input: ReadinessInput, v: Verdict, notes: string[]): boolean {
  if (v.by !== input.identity || !input.newest || !v.sha) return true;
  const rec = input.newest.get(v.sha);
  if (!rec) return true;
  const sameKind = v.via === 'marker' ? rec.via === 'marker' : rec.via !== 'marker';
  if (rec.id === v.id && sameKind) return true;
  const what = v.via === 'marker' ? 'marker comment' : 'review';
  notes.push(
    `${what} #${v.id} by ${v.by} not counted: the service's journal records a newer verdict (${rec.via} #${rec.id}) for ${short(v.sha)}`,
  );
  return false;
}

/** An approval counts only if given after the base last changed. GitHub's times have whole
 *  seconds: one in the same second as the change is not known to be after it. A change
 *  request keeps blocking across a base change (it is lifted by its reviewer, as on GitHub). */
function afterBaseChange(input: ReadinessInput, v: Verdict, notes: string[]): boolean {
  if (!input.baseChangedAt || v.state !== 'APPROVED') return true;
  const at = Date.parse(v.at);
  if (Number.isFinite(at) && at > Date.parse(input.baseChangedAt)) return true;
  notes.push(
    `approval by ${v.via === 'marker' ? `${v.by} (marker comment)` : v.by} not counted: given before the base changed to '${input.pr.base}' at ${input.baseChangedAt}`,
  );
  return false;
}

/** What the host says stands in the way of a merge (GitHub's mergeable and mergeable_state). */
function mergeability(pr: ReadinessInput['pr']): string[] {
  const state = pr.mergeableState;
  if (pr.mergeable === false || state === 'dirty')
    return [
      `the head conflicts with the base '${pr.base}' (mergeable_state ${state ?? 'unknown'}); merge the base into the branch or rebase it`,
    ];
  switch (state) {
    case 'blocked':
      return [
        'branch protection blocks the merge (mergeable_state blocked): a required review, check or signature is missing',
      ];
    case 'behind':
      return [
        `the head is behind the base '${pr.base}' and branch protection requires it up to date (mergeable_state behind)`,
      ];
    case 'unknown':
      return ['GitHub has not yet computed whether the PR merges cleanly (mergeable_state unknown); ask again shortly'];
    default:
      return [];
  }
}

export function readiness(input: ReadinessInput): Readiness {
  const { pr } = input;
  const reasons: string[] = [];
  const notes: string[] = [];
  const verdicts = deciding(input, notes);
  const head = pr.head;

  if (pr.state !== 'open') reasons.push(`PR is ${pr.state}`);
  if (pr.draft) reasons.push('PR is a draft');
  if (!head) reasons.push(`head branch '${pr.branch}' is gone from the remote`);
  if (pr.state === 'open') reasons.push(...mergeability(pr));

  const viaText = (v: Verdict) => (v.via === 'marker' ? `${v.by} (marker comment)` : v.by);
  const approvals = verdicts.filter((v) => v.state === 'APPROVED' && head !== null && v.sha === head);
  const blocking = verdicts.filter((v) => v.state === 'CHANGES_REQUESTED');
  const staleApprovals = verdicts.filter((v) => v.state === 'APPROVED' && !approvals.includes(v));

  for (const v of blocking) reasons.push(`changes requested by ${viaText(v)} at ${short(v.sha)}`);
  if (head && approvals.length === 0) {
    reasons.push(`no approval for the head ${short(head)}`);
    for (const v of staleApprovals)
      reasons.push(`approval by ${viaText(v)} is for ${short(v.sha)}, not the head ${short(head)}`);
  }

  const checks = checksState(input.checks);
  for (const c of input.checks) {
    if (!GREEN.has(c.state)) reasons.push(`check '${c.name}' is ${c.state}`);
  }

  const latestVerdict = verdicts.reduce<Verdict | null>(
    (best, v) => (best === null || v.at >= best.at ? v : best),
    null,
  );
  return {
    ready: reasons.length === 0,
    reasons,
    notes,
    approvals,
    blocking,
    latestVerdict,
    stale: latestVerdict !== null && latestVerdict.sha !== head,
    checks,
  };
}
