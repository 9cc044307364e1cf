// The GitHub fake's reviews and comments: a PR's reviews (GitHub's 422 own-PR refusals, a
// required body, a known commit, and review comments only on lines in one hunk of the PR's
// diff), its review comments on lines, and its issue comments.
import { textOf } from '../../shared/format/text';
import { err, page } from './githubFakeReplies';
import type { Ask, Reply } from './githubFakeReplies';
import { stamp } from './githubFakeState';
import type { FakeState, Json } from './githubFakeState';

export function reviewRoutes(s: FakeState, { method, url, rest, login, body }: Ask): Reply | undefined {
  let r: RegExpExecArray | null;
  const pull = (n: string) => s.pulls.find((x) => x.number === Number(n));
  if ((r = /^\/pulls\/(\d+)\/reviews$/.exec(rest))) {
    const pr = pull(r[1]);
    if (!pr) return err(404, 'Not Found');
    const list = s.reviews.get(pr.number) ?? [];
    if (method === 'GET') return page(s.at, url, list);
    const event = body.event as string | undefined;
    if (event === 'APPROVE' && login === pr.user)
      return err(422, 'Unprocessable Entity', ['Review Can not approve your own pull request']);
    if (event === 'REQUEST_CHANGES' && login === pr.user)
      return err(422, 'Unprocessable Entity', ['Review Can not request changes on your own pull request']);
    if ((event === 'REQUEST_CHANGES' || event === 'COMMENT') && !body.body)
      return err(422, 'Unprocessable Entity', ['Review body is required']);
    const commit = (body.commit_id as string | undefined) ?? s.headOf(pr);
    if (!commit || !s.isCommit(commit)) return err(422, 'Unprocessable Entity', [`No commit found for SHA: ${commit}`]);
    // GitHub refuses the whole review when a comment's lines are not in one hunk of the
    // PR's diff at that commit (context lines count; the rest of the file does not).
    const asked = (body.comments as Json[] | undefined) ?? [];
    for (const c of asked) {
      const line = typeof c.line === 'number' ? c.line : NaN;
      const first = typeof c.start_line === 'number' ? c.start_line : line;
      const inHunk = s.diffHunks(pr.base, commit, textOf(c.path)).some((h) => h.start <= first && line <= h.end);
      if (!inHunk || !c.body)
        return err(422, 'Unprocessable Entity', ['Pull request review thread line must be part of the diff']);
      if (c.start_line !== undefined && (typeof c.start_line !== 'number' || c.start_line >= line))
        return err(422, 'Unprocessable Entity', ['Pull request review thread start line must precede the end line']);
    }
    const state =
      event === 'APPROVE'
        ? 'APPROVED'
        : event === 'REQUEST_CHANGES'
          ? 'CHANGES_REQUESTED'
          : event === 'COMMENT'
            ? 'COMMENTED'
            : 'PENDING';
    const review = s.shapes().review({
      id: s.nextId(),
      number: pr.number,
      login,
      association: s.association(login),
      body: textOf(body.body),
      state,
      commit_id: commit,
      ...(state === 'PENDING' ? {} : { submitted_at: stamp() }),
    });
    list.push(review);
    s.reviews.set(pr.number, list);
    const onLines = s.lineComments.get(pr.number) ?? [];
    for (const c of asked)
      onLines.push(
        s.shapes().reviewComment({
          id: s.nextId(),
          number: pr.number,
          reviewId: review.id as number,
          login,
          association: s.association(login),
          body: textOf(c.body),
          path: textOf(c.path),
          line: c.line as number,
          start_line: typeof c.start_line === 'number' ? c.start_line : null,
          commit_id: commit,
          created_at: stamp(),
        }),
      );
    s.lineComments.set(pr.number, onLines);
    return { status: 200, body: review };
  }
  if ((r = /^\/pulls\/(\d+)\/comments$/.exec(rest)) && method === 'GET') {
    const pr = pull(r[1]);
    if (!pr) return err(404, 'Not Found');
    return page(s.at, url, s.lineComments.get(pr.number) ?? []);
  }
  if ((r = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
    const pr = pull(r[1]);
    if (!pr) return err(404, 'Not Found');
    const list = s.comments.get(pr.number) ?? [];
    if (method === 'GET') return page(s.at, url, list);
    if (!body.body)
      return err(422, 'Validation Failed', [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }]);
    const now = stamp();
    const c = s.shapes().issueComment({
      id: s.nextId(),
      number: pr.number,
      login,
      association: s.association(login),
      body: textOf(body.body),
      created_at: now,
      updated_at: now,
    });
    list.push(c);
    s.comments.set(pr.number, list);
    return { status: 201, body: c };
  }
  return undefined;
}
