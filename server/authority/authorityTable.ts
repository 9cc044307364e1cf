// Who may call what: every RPC method and HTTP route of the daemon has exactly one row
// here, and the daemon refuses a method or route without one (a unit test enumerates the
// protocol so a new method cannot ship without a row). The rows are the whole matrix; the
// evaluation is in authorize.ts and the user's copy of the table in docs/authority.md.
//
// A person (no agent credential) may call everything. An agent may read everything, act
// on itself and the lanes it launched (their lanes and successors too), launch by the
// launch rules, report as itself, and post what its own role exists to post.

/** A request's params as the method received them (already validated). */
export type Params = Record<string, unknown>;

type Ref = (p: Params) => string | undefined;

export type Rule =
  /** Reads, waits and checks: every caller, as before. */
  | { who: 'anyone' }
  /** Only a person: `action` completes "an agent may not …". */
  | { who: 'person'; action: string }
  /** The agent itself (when `self`) or a conversation it launched, their lanes, their successors. */
  | { who: 'lineage'; verb: string; noun: 'lanes' | 'conversations'; target: Ref; self: boolean }
  /** Any caller; the launch rules of the method judge the effective launcher and role, and an agent launches only as itself. */
  | { who: 'launcher' }
  /** Any caller, always as itself: the method files for the calling agent and nobody else. */
  | { who: 'itself' }
  /** A person, or the review parent (or quick reviewer) of the issue. */
  | { who: 'reviewParent'; action: string; issue: Ref }
  /** A person, or the work agent of the issue (or its successor). */
  | { who: 'workAgent'; action: string; issue: Ref }
  /** No caller: the request proves itself by GitHub's signature over its body. */
  | { who: 'signed' }
  /** The method applies its own rule to the resolved caller (`rule` says it, for the docs). */
  | { who: 'method'; rule: string };

const field =
  (name: string): Ref =>
  (p) =>
    typeof p[name] === 'string' && p[name] !== '' ? p[name] : undefined;
const anyone: Rule = { who: 'anyone' };
const person = (action: string): Rule => ({ who: 'person', action });
const lanes = (verb: string, target = field('lane')): Rule => ({
  who: 'lineage',
  verb,
  noun: 'lanes',
  target,
  self: true,
});
const convs = (verb: string, opts: { target?: Ref; self?: boolean } = {}): Rule => ({
  who: 'lineage',
  verb,
  noun: 'conversations',
  target: opts.target ?? field('conv'),
  self: opts.self ?? true,
});

export const AUTHORITY: Readonly<Record<string, Rule>> = {
  // Configuration and the daemon.
  'config/get': anyone,
  'config/roles': anyone,
  'config/models': anyone,
  'config/set': person('change svc configuration (svc config set)'),
  'daemon/status': anyone,
  'daemon/stop': person('stop or restart the daemon (svc daemon stop / restart)'),
  'daemon/advanceClock': person("move the daemon's test clock"),
  'doctor/run': anyone,
  'hosts/list': anyone,
  'hosts/check': anyone,
  'projects/list': anyone,
  'projects/add': person('add a project (svc project add)'),

  // Conversations.
  'conversations/list': anyone,
  'conversations/show': anyone,
  'conversations/log': anyone,
  'conversations/status': anyone,
  'transcript/read': anyone,
  'conversations/new': person('start a root conversation (svc conv new); launch a lane instead (svc lane start)'),
  'conversations/stop': convs('stop'),
  'conversations/resume': convs('resume'),
  'conversations/stoppedByDaemon': anyone,
  // Person only: the set spans every lineage (docs/decisions/daemon.md); an agent resumes
  // one of its own with conversations/resume.
  'conversations/resumeStoppedByDaemon': person('resume every agent the daemon stopped'),
  'conversations/archive': convs('archive'),
  'conversations/unarchive': convs('unarchive'),
  'conversations/tell': convs('tell'),
  // Answering its own question would approve its own tool call: only a launcher answers a lane.
  'conversations/answer': convs('answer the questions of', { self: false }),
  'conversations/handoff': convs('hand off', { target: (p) => field('conv')(p) ?? field('caller')(p) }),
  'conversations/fork': convs('fork', { target: (p) => field('conv')(p) ?? field('caller')(p) }),

  // Lanes.
  'lanes/start': { who: 'launcher' },
  'lanes/list': anyone,
  'lanes/get': anyone,
  'lanes/show': anyone,
  'lanes/runs': anyone,
  // The inbox: a read; answering from it goes through conversations/answer and lanes/budget.
  'inbox/list': anyone,
  // Only the daemon sends to the targets of config.yaml (the person's file); a test notice is the person's.
  'notify/test': person('send through a notify target (svc notify test)'),
  'lanes/wait': anyone,
  'lanes/report': { who: 'itself' },
  'lanes/push': { who: 'itself' },
  'lanes/stop': lanes('stop'),
  'lanes/reap': lanes('reap'),
  // Its lane or run form is judged by the method on the resolved caller (budget.ts, mayRaiseBudget).
  // A builder's launcher or an ancestor of it lands it: never the builder itself, nor a sibling or a critic.
  'lanes/land': { who: 'lineage', verb: 'land', noun: 'lanes', target: field('lane'), self: false },
  'lanes/landings': anyone,
  // The same callers as lanes/land, over every builder of the keys named (server/land/pickAuthority.ts).
  'lanes/pick': {
    who: 'method',
    rule: 'person; an agent that launched every builder named (or an ancestor of it), never a builder or critic',
  },
  'lanes/budget': { who: 'method', rule: 'person; an ancestor of every lane named (never the lane itself)' },
  'runs/export': anyone,

  // Issues and their review.
  'issues/list': anyone,
  'issues/show': anyone,
  'issues/new': person('file an issue (svc issue new)'),
  'issues/start': person('start the work agent of an issue (svc issue start)'),
  'issues/done': { who: 'workAgent', action: 'finish the issue (svc done)', issue: field('issue') },
  'review/show': anyone,
  'review/request': { who: 'workAgent', action: 'request its review (svc review request)', issue: field('issue') },
  'review/abort': person('abort a review (svc review abort)'),
  'review/restart': person('restart a review (svc review restart)'),
  // Only the person judges a finding not worth fixing: an agent dismissing its own would silence its review.
  'review/dismiss': person('dismiss a review finding (svc review dismiss)'),
  'review/wait': {
    who: 'reviewParent',
    action: "wait for the review's lanes (svc review wait)",
    issue: field('issue'),
  },
  'review/post': { who: 'reviewParent', action: 'post the verdict (svc review post)', issue: field('issue') },

  // Pull requests: the judged party never signs or merges its own verdict.
  'pr/list': anyone,
  'pr/show': anyone,
  'pr/create': person('open a pull request directly (svc pr create); finish the issue with svc done, which opens it'),
  'pr/review': person('review a pull request as the service (svc pr review)'),
  'pr/merge': person('merge a pull request (svc pr merge)'),

  // HTTP routes (bearer token, unless signed), keyed `METHOD pattern`.
  'GET /api/health': anyone,
  'GET /api/agents/:name/output': anyone,
  'GET /api/lanes': anyone,
  'GET /api/lanes/:name': anyone,
  'POST /api/lanes': { who: 'launcher' },
  'POST /api/lanes/:name/reap': lanes('reap', field('name')),
  'POST /api/webhooks/github': { who: 'signed' },
};

/** The row of `key`, which must exist: a method or route without one is refused by the daemon. */
export function ruleOf(key: string): Rule | undefined {
  return Object.prototype.hasOwnProperty.call(AUTHORITY, key) ? AUTHORITY[key] : undefined;
}

/** Who may call, in words (the docs' table shows the same). */
export function whoMay(rule: Rule): string {
  switch (rule.who) {
    case 'anyone':
      return 'anyone';
    case 'person':
      return 'person only';
    case 'lineage':
      return rule.self
        ? `person; agent on itself or ${rule.noun} it launched (their lanes and successors)`
        : `person; agent on ${rule.noun} it launched (their lanes and successors), not itself`;
    case 'launcher':
      return 'person; agent as itself, by the launch rules';
    case 'itself':
      return 'anyone, as itself';
    case 'reviewParent':
      return "person; the issue's review parent";
    case 'workAgent':
      return "person; the issue's work agent";
    case 'signed':
      return 'GitHub (signed body)';
    case 'method':
      return rule.rule;
  }
}
