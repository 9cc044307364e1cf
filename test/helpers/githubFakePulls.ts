// The GitHub fake's pull requests: list (by state and head), open (GitHub's 422s for a
// missing branch and a second open PR of one head), read, and merge as a real commit on the
// base (merge, squash or rebase, as the repository allows; 409 when the head moved).
import { spawnSync } from 'node:child_process';
import { textOf } from '../../shared/format/text';
import { err, page } from './githubFakeReplies';
import type { Ask, Reply } from './githubFakeReplies';
import { stamp } from './githubFakeState';
import type { FakeState, Pull } from './githubFakeState';

export function pullRoutes(s: FakeState, { method, url, rest, login, body }: Ask): Reply | undefined {
  let r: RegExpExecArray | null;
  const pull = (n: string) => s.pulls.find((x) => x.number === Number(n));
  if (rest === '/pulls' && method === 'GET') {
    const state = url.searchParams.get('state') ?? 'open';
    const head = url.searchParams.get('head');
    const list = s.pulls
      .filter((x) => state === 'all' || x.state === state)
      .filter((x) => !head || `${s.o.owner}:${x.head}` === head)
      .sort((a, b) => b.number - a.number);
    return page(
      s.at,
      url,
      list.map((p) => s.pullJson(p)),
    );
  }
  if (rest === '/pulls' && method === 'POST') {
    const head = textOf(body.head);
    if (!s.branchSha(head))
      return err(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    if (!s.branchSha(textOf(body.base)))
      return err(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    if (s.pulls.some((x) => x.head === head && x.state === 'open')) {
      return err(422, 'Validation Failed', [
        { resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${s.o.owner}:${head}.` },
      ]);
    }
    const now = stamp();
    const pr: Pull = {
      number: s.pulls.length + 1,
      title: String(body.title),
      body: textOf(body.body),
      head,
      base: String(body.base),
      user: login,
      state: 'open',
      draft: body.draft === true,
      mergeable: true,
      mergeable_state: 'clean',
      created_at: now,
      updated_at: now,
      merged_at: null,
      merge_commit_sha: null,
      mergedHead: null,
    };
    s.pulls.push(pr);
    return { status: 201, body: s.pullJson(pr) };
  }
  if ((r = /^\/pulls\/(\d+)$/.exec(rest)) && method === 'GET') {
    const pr = pull(r[1]);
    return pr ? { status: 200, body: s.pullJson(pr) } : err(404, 'Not Found');
  }
  if ((r = /^\/pulls\/(\d+)\/merge$/.exec(rest)) && method === 'PUT') {
    const pr = pull(r[1]);
    if (!pr) return err(404, 'Not Found');
    if (pr.state !== 'open') return err(405, 'Pull Request is not mergeable');
    const head = s.branchSha(pr.head)!;
    if (body.sha && body.sha !== head) return err(409, 'Head branch was modified. Review and try the merge again.');
    const base = s.branchSha(pr.base)!;
    const how = textOf(body.merge_method, 'merge') as 'merge' | 'squash' | 'rebase';
    if (!s.allowed[how])
      return err(
        405,
        {
          merge: 'Merge commits are not allowed on this repository.',
          squash: 'Squash merges are not allowed on this repository.',
          rebase: 'Rebase merges are not allowed on this repository.',
        }[how],
      );
    const tree = s.git('merge-tree', '--write-tree', base, head);
    if (tree.status !== 0) return err(405, 'Pull Request is not mergeable');
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: login,
      GIT_AUTHOR_EMAIL: `${login}@users.noreply.github.com`,
      GIT_COMMITTER_NAME: 'GitHub',
      GIT_COMMITTER_EMAIL: 'noreply@github.com',
    };
    // Squash and rebase land the PR's tree as one new commit on the base (a rebase of one commit, which is what the tests push).
    const parents = how === 'merge' ? ['-p', base, '-p', head] : ['-p', base];
    const message =
      how === 'merge' ? `Merge pull request #${pr.number} from ${s.o.owner}/${pr.head}` : `${pr.title} (#${pr.number})`;
    const commit = spawnSync(
      'git',
      [`--git-dir=${s.o.gitDir}`, 'commit-tree', tree.stdout.split('\n')[0], ...parents, '-m', message],
      { encoding: 'utf8', env },
    );
    const sha = commit.stdout.trim();
    s.git('update-ref', `refs/heads/${pr.base}`, sha, base);
    Object.assign(pr, { state: 'closed', merged_at: stamp(), merge_commit_sha: sha, mergedHead: head });
    return { status: 200, body: { sha, merged: true, message: 'Pull Request successfully merged' } };
  }
  return undefined;
}
