// Whether a GitHub reviewer can push, which decides whether their verdict counts: asked of
// the permission endpoint, because `author_association` COLLABORATOR or MEMBER is also given
// to people with read or triage access, whose verdicts GitHub's branch protection does not
// count either. The answers are kept per PR head (a permission changed meanwhile counts from
// the next push), once per author.
import { asGithubError } from './githubErrors';
import type { GithubClient } from './githubClient';

export class GithubPushAccess {
  /** Per PR: whether each verdict author can push, as the permission endpoint said at this head. */
  private readonly permissions = new Map<number, { head: string; asked: Map<string, Promise<boolean>> }>();

  constructor(
    private readonly client: GithubClient,
    private readonly repo: { owner: string; repo: string },
  ) {}

  /** Asks whether a login can push, once per PR head (without a head: once per call of
   *  `at`); a failed question is asked again next time. */
  at(number: number, head: string | null | undefined): (login: string) => Promise<boolean> {
    const asked = this.permissionsAt(number, head);
    return (login) => {
      if (!asked.has(login)) {
        const answer = this.canPush(login);
        asked.set(login, answer);
        answer.catch(() => asked.delete(login));
      }
      return asked.get(login)!;
    };
  }

  /** Permission answers for the PR at `head` (a fresh set without a head). */
  private permissionsAt(number: number, head: string | null | undefined): Map<string, Promise<boolean>> {
    if (!head) return new Map();
    const kept = this.permissions.get(number);
    if (kept && kept.head === head) return kept.asked;
    const fresh = { head, asked: new Map<string, Promise<boolean>>() };
    this.permissions.set(number, fresh);
    return fresh.asked;
  }

  /** Push access by the permission endpoint; a user it will not tell about has none. */
  private async canPush(login: string): Promise<boolean> {
    try {
      const r = await this.client.repos.getCollaboratorPermissionLevel({ ...this.repo, username: login });
      const p = r.data.user?.permissions;
      return r.data.permission === 'admin' || r.data.permission === 'write' || !!(p?.push || p?.maintain || p?.admin);
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 404 || status === 403) return false;
      throw asGithubError(e, `read the permission of ${login}`);
    }
  }
}
