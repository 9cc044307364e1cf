// Whole GitHub REST objects for the fake (test/helpers/githubFake.ts), with every field
// GitHub's OpenAPI description requires (githubFakeShapes checks them against it). The
// values that matter to svc come from the caller; the rest are what GitHub would send
// for a plain repository: URLs under the fake's API root, nulls, zero counts.
type Json = Record<string, unknown>;

/** A stable positive id for a name (users, repositories). */
function idOf(name: string): number {
  let h = 7;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) % 1_000_000;
  return h + 1;
}
const nodeId = (kind: string, id: number) => Buffer.from(`${kind}:${id}`).toString('base64');

export class GithubShapes {
  constructor(
    private readonly api: string,
    private readonly owner: string,
    private readonly repo: string,
  ) {}

  private get repoApi(): string {
    return `${this.api}/repos/${this.owner}/${this.repo}`;
  }

  user(login: string): Json {
    const id = idOf(login);
    const url = `${this.api}/users/${encodeURIComponent(login)}`;
    return {
      login,
      id,
      node_id: nodeId('User', id),
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: '',
      url,
      html_url: `https://github.com/${encodeURIComponent(login)}`,
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
      type: login.endsWith('[bot]') ? 'Bot' : 'User',
      site_admin: false,
    };
  }

  /** GET /user: a public user (no private-user fields, so it is one of the two GitHub describes). */
  authenticatedUser(login: string): Json {
    return {
      ...this.user(login),
      name: null,
      company: null,
      blog: '',
      location: null,
      email: null,
      hireable: null,
      bio: null,
      public_repos: 0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
    };
  }

  /** minimal-repository; `repository` and full-repository add to it. */
  minimalRepository(): Json {
    const u = this.repoApi;
    const id = idOf(`${this.owner}/${this.repo}`);
    return {
      id,
      node_id: nodeId('Repository', id),
      name: this.repo,
      full_name: `${this.owner}/${this.repo}`,
      owner: this.user(this.owner),
      private: false,
      html_url: `https://github.com/${this.owner}/${this.repo}`,
      description: null,
      fork: false,
      url: u,
      ...Object.fromEntries(
        (
          [
            ['archive_url', '/{archive_format}{/ref}'],
            ['assignees_url', '/assignees{/user}'],
            ['blobs_url', '/git/blobs{/sha}'],
            ['branches_url', '/branches{/branch}'],
            ['collaborators_url', '/collaborators{/collaborator}'],
            ['comments_url', '/comments{/number}'],
            ['commits_url', '/commits{/sha}'],
            ['compare_url', '/compare/{base}...{head}'],
            ['contents_url', '/contents/{+path}'],
            ['contributors_url', '/contributors'],
            ['deployments_url', '/deployments'],
            ['downloads_url', '/downloads'],
            ['events_url', '/events'],
            ['forks_url', '/forks'],
            ['git_commits_url', '/git/commits{/sha}'],
            ['git_refs_url', '/git/refs{/sha}'],
            ['git_tags_url', '/git/tags{/sha}'],
            ['hooks_url', '/hooks'],
            ['issue_comment_url', '/issues/comments{/number}'],
            ['issue_events_url', '/issues/events{/number}'],
            ['issues_url', '/issues{/number}'],
            ['keys_url', '/keys{/key_id}'],
            ['labels_url', '/labels{/name}'],
            ['languages_url', '/languages'],
            ['merges_url', '/merges'],
            ['milestones_url', '/milestones{/number}'],
            ['notifications_url', '/notifications{?since,all,participating}'],
            ['pulls_url', '/pulls{/number}'],
            ['releases_url', '/releases{/id}'],
            ['stargazers_url', '/stargazers'],
            ['statuses_url', '/statuses/{sha}'],
            ['subscribers_url', '/subscribers'],
            ['subscription_url', '/subscription'],
            ['tags_url', '/tags'],
            ['teams_url', '/teams'],
            ['trees_url', '/git/trees{/sha}'],
          ] as const
        ).map(([k, path]) => [k, u + path]),
      ),
    };
  }

  /** `repository` (a PR's head and base) and, with `extra`, full-repository (GET /repos/{o}/{r}). */
  repository(extra: Json = {}): Json {
    return {
      ...this.minimalRepository(),
      clone_url: `https://github.com/${this.owner}/${this.repo}.git`,
      git_url: `git://github.com/${this.owner}/${this.repo}.git`,
      ssh_url: `git@github.com:${this.owner}/${this.repo}.git`,
      svn_url: `https://github.com/${this.owner}/${this.repo}`,
      mirror_url: null,
      homepage: null,
      language: null,
      default_branch: 'main',
      forks: 0,
      forks_count: 0,
      stargazers_count: 0,
      watchers: 0,
      watchers_count: 0,
      open_issues: 0,
      open_issues_count: 0,
      size: 0,
      has_downloads: true,
      has_issues: true,
      has_projects: true,
      has_wiki: true,
      has_pages: false,
      has_discussions: false,
      archived: false,
      disabled: false,
      license: null,
      pushed_at: '2020-01-01T00:00:00Z',
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
      ...extra,
    };
  }

  fullRepository(extra: Json): Json {
    return this.repository({ network_count: 0, subscribers_count: 0, ...extra });
  }

  /** A pull request, whole (GET, POST and the list: pull-request-simple is a part of it). */
  pullRequest(p: {
    number: number;
    title: string;
    body: string;
    state: string;
    draft: boolean;
    user: string;
    association: string;
    /** `repoGone`: the head's fork was deleted (GitHub then reports `head.repo: null`). */
    head: { ref: string; sha: string | null; repoGone?: boolean };
    base: { ref: string; sha: string | null };
    created_at: string;
    updated_at: string;
    merged_at: string | null;
    merge_commit_sha: string | null;
    mergeable: boolean | null;
    mergeable_state: string;
  }): Json {
    const url = `${this.repoApi}/pulls/${p.number}`;
    const issueUrl = `${this.repoApi}/issues/${p.number}`;
    const html = `https://github.com/${this.owner}/${this.repo}/pull/${p.number}`;
    const id = 100_000 + p.number;
    const side = (s: { ref: string; sha: string | null; repoGone?: boolean }) => ({
      label: `${this.owner}:${s.ref}`,
      ref: s.ref,
      sha: s.sha,
      user: this.user(this.owner),
      repo: s.repoGone ? null : this.repository(),
    });
    const href = (h: string) => ({ href: h });
    return {
      url,
      id,
      node_id: nodeId('PullRequest', id),
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      issue_url: issueUrl,
      commits_url: `${url}/commits`,
      review_comments_url: `${url}/comments`,
      review_comment_url: `${this.repoApi}/pulls/comments{/number}`,
      comments_url: `${issueUrl}/comments`,
      statuses_url: `${this.repoApi}/statuses/${p.head.sha ?? ''}`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      user: this.user(p.user),
      body: p.body,
      labels: [],
      milestone: null,
      active_lock_reason: null,
      created_at: p.created_at,
      updated_at: p.updated_at,
      closed_at: p.state === 'closed' ? (p.merged_at ?? p.updated_at) : null,
      merged_at: p.merged_at,
      merge_commit_sha: p.merge_commit_sha,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: side(p.head),
      base: side(p.base),
      _links: {
        self: href(url),
        html: href(html),
        issue: href(issueUrl),
        comments: href(`${issueUrl}/comments`),
        review_comments: href(`${url}/comments`),
        review_comment: href(`${this.repoApi}/pulls/comments{/number}`),
        commits: href(`${url}/commits`),
        statuses: href(`${this.repoApi}/statuses/${p.head.sha ?? ''}`),
      },
      author_association: p.association,
      auto_merge: null,
      draft: p.draft,
      merged: p.merged_at !== null,
      mergeable: p.mergeable,
      rebaseable: p.mergeable,
      mergeable_state: p.mergeable_state,
      merged_by: null,
      comments: 0,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: 0,
    };
  }

  review(r: {
    id: number;
    number: number;
    login: string;
    association: string;
    body: string;
    state: string;
    commit_id: string;
    submitted_at?: string;
  }): Json {
    const html = `https://github.com/${this.owner}/${this.repo}/pull/${r.number}#pullrequestreview-${r.id}`;
    const pr = `${this.repoApi}/pulls/${r.number}`;
    return {
      id: r.id,
      node_id: nodeId('PullRequestReview', r.id),
      user: this.user(r.login),
      body: r.body,
      state: r.state,
      html_url: html,
      pull_request_url: pr,
      _links: { html: { href: html }, pull_request: { href: pr } },
      commit_id: r.commit_id,
      author_association: r.association,
      ...(r.submitted_at ? { submitted_at: r.submitted_at } : {}),
    };
  }

  /** A review comment on a line (`pull-request-review-comment`). */
  reviewComment(c: {
    id: number;
    number: number;
    reviewId: number;
    login: string;
    association: string;
    body: string;
    path: string;
    line: number;
    start_line: number | null;
    commit_id: string;
    created_at: string;
  }): Json {
    const html = `https://github.com/${this.owner}/${this.repo}/pull/${c.number}#discussion_r${c.id}`;
    const pr = `${this.repoApi}/pulls/${c.number}`;
    const self = `${this.repoApi}/pulls/comments/${c.id}`;
    return {
      url: self,
      id: c.id,
      node_id: nodeId('PullRequestReviewComment', c.id),
      pull_request_review_id: c.reviewId,
      diff_hunk: `@@ -0,0 +1,${c.line} @@`,
      path: c.path,
      commit_id: c.commit_id,
      original_commit_id: c.commit_id,
      user: this.user(c.login),
      body: c.body,
      created_at: c.created_at,
      updated_at: c.created_at,
      html_url: html,
      pull_request_url: pr,
      author_association: c.association,
      _links: { self: { href: self }, html: { href: html }, pull_request: { href: pr } },
      start_line: c.start_line,
      original_start_line: c.start_line,
      start_side: c.start_line === null ? null : 'RIGHT',
      line: c.line,
      original_line: c.line,
      side: 'RIGHT',
    };
  }

  issueComment(c: {
    id: number;
    number: number;
    login: string;
    association: string;
    body: string;
    created_at: string;
    updated_at: string;
  }): Json {
    return {
      id: c.id,
      node_id: nodeId('IssueComment', c.id),
      url: `${this.repoApi}/issues/comments/${c.id}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/pull/${c.number}#issuecomment-${c.id}`,
      issue_url: `${this.repoApi}/issues/${c.number}`,
      user: this.user(c.login),
      body: c.body,
      created_at: c.created_at,
      updated_at: c.updated_at,
      author_association: c.association,
    };
  }

  /** A commit status as POST answers it (with its creator); the combined status drops `creator`. */
  status(s: {
    id: number;
    sha: string;
    state: string;
    context: string;
    description: string | null;
    target_url: string | null;
    creator: string;
    at: string;
  }): Json {
    return {
      url: `${this.repoApi}/statuses/${s.sha}`,
      avatar_url: null,
      id: s.id,
      node_id: nodeId('StatusContext', s.id),
      state: s.state,
      description: s.description,
      target_url: s.target_url,
      context: s.context,
      created_at: s.at,
      updated_at: s.at,
      creator: this.user(s.creator),
    };
  }

  combinedStatus(sha: string, state: string, statuses: Json[], total: number): Json {
    return {
      state,
      sha,
      total_count: total,
      statuses,
      repository: this.minimalRepository(),
      commit_url: `${this.repoApi}/commits/${sha}`,
      url: `${this.repoApi}/commits/${sha}/status`,
    };
  }

  checkRun(c: { id: number; sha: string; name: string; status: string; conclusion: string | null }): Json {
    return {
      id: c.id,
      node_id: nodeId('CheckRun', c.id),
      head_sha: c.sha,
      external_id: '',
      url: `${this.repoApi}/check-runs/${c.id}`,
      html_url: `https://github.com/${this.owner}/${this.repo}/runs/${c.id}`,
      details_url: null,
      status: c.status,
      conclusion: c.conclusion,
      started_at: '2020-01-01T00:00:00Z',
      completed_at: c.status === 'completed' ? '2020-01-01T00:01:00Z' : null,
      output: {
        title: null,
        summary: null,
        text: null,
        annotations_count: 0,
        annotations_url: `${this.repoApi}/check-runs/${c.id}/annotations`,
      },
      name: c.name,
      check_suite: { id: c.id },
      app: null,
      pull_requests: [],
    };
  }

  gitRef(ref: string, sha: string): Json {
    return {
      ref,
      node_id: nodeId('Ref', idOf(ref)),
      url: `${this.repoApi}/git/${ref}`,
      object: { type: 'commit', sha, url: `${this.repoApi}/git/commits/${sha}` },
    };
  }
}
