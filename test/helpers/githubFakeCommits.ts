// The GitHub fake's commit statuses and check runs: set a status, read the combined status
// (`pending` with total_count 0 when there are none; each context's newest, without its
// creator), and list check runs.
import { textOf } from '../../shared/format/text';
import { err, page } from './githubFakeReplies';
import type { Ask, Reply } from './githubFakeReplies';
import { stamp } from './githubFakeState';
import type { FakeState, Json } from './githubFakeState';

/** Each context's newest status of `sha`, newest first. */
function latestPerContext(s: FakeState, sha: string): Json[] {
  const latest = new Map<string, Json>();
  for (const x of s.statuses.get(sha) ?? []) latest.set(x.context as string, x);
  return [...latest.values()].reverse();
}

export function commitRoutes(s: FakeState, { method, url, rest, login, body }: Ask): Reply | undefined {
  let r: RegExpExecArray | null;
  if ((r = /^\/statuses\/([0-9a-f]+)$/.exec(rest)) && method === 'POST') {
    if (!s.isCommit(r[1])) return err(422, `No commit found for SHA: ${r[1]}`);
    const made = s.shapes().status({
      id: s.nextId(),
      sha: r[1],
      state: String(body.state),
      context: textOf(body.context, 'default'),
      description: (body.description as string | undefined) ?? null,
      target_url: (body.target_url as string | undefined) ?? null,
      creator: login,
      at: stamp(),
    });
    s.statuses.set(r[1], [...(s.statuses.get(r[1]) ?? []), made]);
    return { status: 201, body: made };
  }
  if ((r = /^\/commits\/([^/]+)\/status$/.exec(rest)) && method === 'GET') {
    const all = latestPerContext(s, r[1]);
    const states = all.map((x) => x.state);
    const state =
      all.length === 0 || states.includes('pending')
        ? 'pending'
        : states.some((x) => x === 'failure' || x === 'error')
          ? 'failure'
          : 'success';
    // The combined status lists each status without its creator.
    const paged = page(
      s.at,
      url,
      all.map(({ creator: _creator, ...rest }) => rest),
    );
    return { ...paged, body: s.shapes().combinedStatus(r[1], state, paged.body as Json[], all.length) };
  }
  if ((r = /^\/commits\/([^/]+)\/check-runs$/.exec(rest)) && method === 'GET') {
    const all = s.checkRuns.get(r[1]) ?? [];
    const paged = page(s.at, url, all);
    return { ...paged, body: { total_count: all.length, check_runs: paged.body } };
  }
  return undefined;
}
