// The git facts a report records and the builder's done check reads (Report rule 1), in
// one place so they are computed the same way in a local worktree (lanes/reports.ts) and,
// through the host helper (server/hosts/helper), in a worktree on another host. In git/,
// not lanes/, because hosts sits below lanes and must not import it.
import { git, gitFacts } from './git';
import type { GitFacts } from './git';

export interface ReportFacts extends GitFacts {
  /** The upstream ref resolves to a commit here. */
  upstreamExists: boolean;
  /** Commits of HEAD the upstream lacks (null without an upstream). */
  unpushed: number | null;
}

export async function reportFacts(dir: string): Promise<ReportFacts> {
  const facts = await gitFacts(dir);
  const upstreamExists = facts.upstream
    ? await git(dir, ['rev-parse', '--verify', '--quiet', `${facts.upstream}^{commit}`]).then(
        () => true,
        () => false,
      )
    : false;
  const unpushed = upstreamExists
    ? Number((await git(dir, ['rev-list', '--count', `${facts.upstream}..HEAD`])).trim())
    : null;
  return { ...facts, upstreamExists, unpushed };
}
