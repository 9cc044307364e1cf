// What a GitHub fake test does to it as a person on GitHub would (githubFake.ts's
// GithubFake): add users, dismiss a review, resolve a thread, edit or delete a comment,
// move a PR's base or a review's commit, set mergeability, drafts and merge methods, add
// check runs, and make the next requests fail.
import type { GithubFake } from './githubFakeApi';
import { later } from './githubFakeState';
import type { FakeState } from './githubFakeState';

type Controls = Omit<GithubFake, 'url' | 'requests' | 'responses' | 'maxPerPage' | 'close'>;

export function fakeControls(s: FakeState): Controls {
  return {
    addUser: (token, login, opts = {}) => {
      s.tokens.set(token, login);
      if (opts.integration) s.integrations.add(login);
      const assoc = opts.association ?? 'COLLABORATOR';
      s.people.set(login, {
        association: assoc,
        permission: opts.permission ?? (['OWNER', 'MEMBER', 'COLLABORATOR'].includes(assoc) ? 'write' : 'read'),
      });
    },
    editComment: (id, body) => {
      for (const list of s.comments.values()) {
        const c = list.find((x) => x.id === id);
        if (c) return void Object.assign(c, { body, updated_at: later(c.updated_at as string) });
      }
      throw new Error(`no comment ${id}`);
    },
    dismissReview: (id) => {
      for (const list of s.reviews.values()) {
        const r = list.find((x) => x.id === id);
        if (r) return void Object.assign(r, { state: 'DISMISSED' });
      }
      throw new Error(`no review ${id}`);
    },
    resolveThread: (id) => {
      if (![...s.lineComments.values()].some((l) => l.some((c) => c.id === id)))
        throw new Error(`no review comment ${id}`);
      s.resolvedThreads.add(id);
    },
    reviewComments: () => [...s.lineComments.values()].flat(),
    deleteComment: (id) => {
      for (const [n, list] of s.comments) {
        const i = list.findIndex((x) => x.id === id);
        if (i >= 0)
          return void s.comments.set(
            n,
            list.filter((_, j) => j !== i),
          );
      }
      throw new Error(`no comment ${id}`);
    },
    editBase: (number, base) => {
      const pr = s.pulls.find((x) => x.number === number)!;
      if (!s.branchSha(base)) throw new Error(`no branch ${base}`);
      Object.assign(pr, { base, updated_at: later(pr.updated_at) });
      return { updated_at: pr.updated_at };
    },
    deleteHeadRepo: (number) =>
      void Object.assign(
        s.pulls.find((x) => x.number === number)!,
        { headRepoGone: true },
      ),
    moveReview: (id, commitId) => {
      for (const list of s.reviews.values()) {
        const r = list.find((x) => x.id === id);
        if (r) return void Object.assign(r, { commit_id: commitId });
      }
      throw new Error(`no review ${id}`);
    },
    setMergeable: (number, mergeable, state) =>
      void Object.assign(
        s.pulls.find((x) => x.number === number)!,
        { mergeable, mergeable_state: state },
      ),
    setDraft: (number, draft) =>
      void Object.assign(
        s.pulls.find((x) => x.number === number)!,
        { draft },
      ),
    allowMerges: (o) => void Object.assign(s.allowed, o),
    failNext: (n, status, message, headers = {}) =>
      void s.failures.push(...Array.from({ length: n }, () => ({ status, message, headers }))),
    addCheckRun: (sha, run) => {
      const list = s.checkRuns.get(sha) ?? [];
      list.push(
        s.shapes().checkRun({
          id: s.nextId(),
          sha,
          name: run.name,
          status: run.status,
          conclusion: run.conclusion ?? null,
        }),
      );
      s.checkRuns.set(sha, list);
    },
  };
}
