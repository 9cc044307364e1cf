// Schemas of SVC_HOME/projects.yaml and SVC_HOME/config.yaml. The daemon validates the
// files with these; config writes (Roles panel, `svc config set`) validate with them too.
// Keep README.md's Configuration section in step with these.
import { z } from 'zod';
import { INBOX_KINDS, InboxKind } from './protocol/inbox';

export const ROLES = ['builder', 'critic', 'verifier', 'play', 'orchestrator'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

export const EFFORTS = ['low', 'medium', 'high'] as const;
/** How an agent's tool calls are approved: `ask` turns them into needs-you requests; `auto` runs unattended. */
export const PERMISSIONS = ['ask', 'auto'] as const;
/** What a lane's agent may change: `workspace` confines it to its own worktree (server/sandbox/); `off` runs it as the person. */
export const SANDBOX_MODES = ['workspace', 'off'] as const;
export const SandboxMode = z.enum(SANDBOX_MODES);
export type SandboxMode = z.infer<typeof SandboxMode>;
/**
 * Where a local lane's git state lives (server/lanes/laneGitRepo.ts): `own` (the default), a
 * repository of its own under the lanes root whose objects are borrowed read-only from the
 * project's, so nothing of the person's repository is writable from the lane; `shared`, a
 * worktree of the person's repository itself (kept one round for whoever needs the old layout).
 */
export const LANE_GIT_LAYOUTS = ['own', 'shared'] as const;
export const LaneGitLayout = z.enum(LANE_GIT_LAYOUTS);
export type LaneGitLayout = z.infer<typeof LaneGitLayout>;
export const DEFAULT_LANE_GIT: LaneGitLayout = 'own';
export const Effort = z.enum(EFFORTS);
export type Effort = z.infer<typeof Effort>;

export const REVIEW_LANES = ['security', 'correctness', 'performance', 'requirements'] as const;
export const ReviewLane = z.enum(REVIEW_LANES);
export type ReviewLane = z.infer<typeof ReviewLane>;

export const REVIEW_MODES = ['quick', 'full', 'none'] as const;
export const ReviewMode = z.enum(REVIEW_MODES);

export const ModelName = z.string().trim().min(1, 'a model must not be empty').max(200);
export const HarnessName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'a harness name is lowercase letters, digits, - and _');

export const RoleDefaults = z
  .object({
    model: ModelName.optional(),
    effort: Effort.optional(),
    harness: HarnessName.optional(),
    permissions: z.enum(PERMISSIONS).optional(),
  })
  .strict();

export const ProjectKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a project key is lowercase letters, digits and -, at most 32 characters');

/** A host of config.yaml `hosts:`: lanes placed there run over SSH. */
export const HostName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'a host name is lowercase letters, digits, - and _, at most 32 characters');

/** A spend cap in US dollars: what a lane (or a run) may cost before svc stops its turns. */
export const BudgetUsd = z
  .number()
  .positive('a budget is an amount of US dollars above 0')
  .max(1_000_000, 'a budget is at most 1,000,000 US dollars');

/** A duration such as `90s`, `15m` or `2h` (shared/format/duration.ts reads it). */
export const StallAfter = z
  .string()
  .regex(/^[1-9]\d{0,5}(s|m|h)$/, 'a duration is a whole number of s, m or h, such as 90s, 15m or 2h');

/** A gauntlet role's defaults: the shared ones plus the host its lanes go to and each lane's spend cap. */
export const GauntletRoleDefaults = z
  .object({
    model: ModelName.optional(),
    effort: Effort.optional(),
    harness: HarnessName.optional(),
    permissions: z.enum(PERMISSIONS).optional(),
    host: HostName.optional(),
    budget: BudgetUsd.optional(),
    sandbox: SandboxMode.optional(),
    /** How long a working lane may show no output or tool activity before the inbox calls it stalled (default 15m). */
    stall_after: StallAfter.optional(),
  })
  .strict();

/** How long a project check may run before svc ends it, when its entry says nothing (seconds). */
export const CHECK_TIMEOUT_DEFAULT_S = 600;

/** One project check (`gauntlet.checks`): a shell command that decides whether a tree may land. */
export const GauntletCheck = z
  .object({
    name: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/,
        'a check name is letters, digits, ., _, : and -, at most 64 characters (it names the output file)',
      ),
    run: z.string().trim().min(1, 'a check must have a command to run (run: npm test)'),
    /** Seconds before the check is ended and counted as failed. */
    timeout: z
      .number()
      .int('a check timeout is a whole number of seconds')
      .positive('a check timeout is a number of seconds above 0')
      .max(86_400, 'a check timeout is at most 86400 seconds (a day)')
      .default(CHECK_TIMEOUT_DEFAULT_S),
  })
  .strict();
export type GauntletCheck = z.infer<typeof GauntletCheck>;

/** How `svc lane land` combines a builder's head with the base. */
export const LAND_METHODS = ['merge', 'rebase', 'squash'] as const;
export const LandMethod = z.enum(LAND_METHODS);
export type LandMethod = z.infer<typeof LandMethod>;

export const Gauntlet = z
  .object({
    lanes_root: z.string().min(1).optional(),
    sparse_checkout: z.array(z.string().min(1)).optional(),
    roles: z.partialRecord(Role, GauntletRoleDefaults).optional(),
    /** Each run's spend cap (USD): every lane of a run with their successors. */
    budget: BudgetUsd.optional(),
    /** The checks a tree must pass to land (`svc lane land`), run in order. */
    checks: z
      .array(GauntletCheck)
      .max(32, 'at most 32 checks')
      .superRefine((checks, ctx) => {
        const seen = new Set<string>();
        for (const [i, c] of checks.entries()) {
          if (seen.has(c.name))
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `two checks are named '${c.name}'` });
          seen.add(c.name);
        }
      })
      .optional(),
    land: z
      .object({ method: LandMethod.default('merge') })
      .strict()
      .optional(),
  })
  .strict();

export const Project = z
  .object({
    path: z.string().min(1),
    default_branch: z.string().min(1).default('main'),
    code_host: z.enum(['local', 'github']).default('local'),
    /** The git remote whose URL is the local code host's bare repository (default `origin`). */
    remote: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a remote name is letters, digits, ., _ and -')
      .optional(),
    github: z
      .object({
        owner: z.string().min(1),
        repo: z.string().min(1),
        /** API root for GitHub Enterprise (or a test fake); default https://api.github.com. */
        api_url: z.string().url().optional(),
      })
      .strict()
      .optional(),
    /** Commands run on the head in `none` review mode (and recorded as commit statuses). */
    check_commands: z.array(z.string().min(1)).optional(),
    gauntlet: Gauntlet.optional(),
  })
  .strict();
export type Project = z.infer<typeof Project>;

export const ProjectsFile = z.object({ projects: z.record(ProjectKey, Project).default({}) }).strict();
export type ProjectsFile = z.infer<typeof ProjectsFile>;

export const HarnessProfile = z
  .object({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    /** script harness only: conversation-name glob → script file, for prompts without a block. */
    scripts: z.record(z.string().min(1), z.string().min(1)).optional(),
    /** The sandbox mode of lanes started with this harness, unless the role or the launch says. */
    sandbox: SandboxMode.optional(),
    /** Files and folders the harness keeps its own state in (`~/` is the agent's home): writable inside the sandbox. */
    state: z.array(z.string().min(1).max(4096)).max(64).optional(),
  })
  .strict();
export type HarnessProfile = z.infer<typeof HarnessProfile>;

// What `ssh` accepts as a destination ([user@]host, an ~/.ssh/config alias, ssh://user@host:port),
// and never something ssh could read as an option (a leading -) or a shell could split.
const SSH_DESTINATION = /^(?:ssh:\/\/)?[A-Za-z0-9_.%+@[\]:-]+$/;
// The options svc sets itself on every connection (server/hosts/sshTransport.ts).
export const SVC_SSH_OPTIONS = [
  'ControlMaster',
  'ControlPath',
  'ControlPersist',
  'BatchMode',
  'ExitOnForwardFailure',
  'RemoteCommand',
  'RequestTTY',
  'SessionType',
  'StdinNull',
  'ForkAfterAuthentication',
];

export const HostEntry = z
  .object({
    /** Anything `ssh` accepts as a destination, so ~/.ssh/config aliases, jump hosts and agents work. */
    ssh: z
      .string()
      .min(1, 'ssh must name a destination')
      .max(255)
      .superRefine((d, ctx) => {
        if (d.startsWith('-'))
          ctx.addIssue({
            code: 'custom',
            message: 'ssh must be a destination ([user@]host or an alias from ~/.ssh/config), not an option',
          });
        else if (!SSH_DESTINATION.test(d))
          ctx.addIssue({
            code: 'custom',
            message:
              'ssh must be a destination such as user@host, an ~/.ssh/config alias or ssh://user@host:port (no spaces or shell characters)',
          });
      }),
    /** The folder on that host holding its lane worktrees: absolute, or ~/… under the SSH user's home. */
    lanes_root: z
      .string()
      .min(1)
      .max(1024)
      .refine(
        (p) => p.startsWith('/') || p.startsWith('~/'),
        "lanes_root must be an absolute path on the host or start with ~/ (the SSH user's home)",
      )
      .refine((p) => !/[\0\n\r]/.test(p), 'lanes_root must not hold control characters')
      .refine((p) => !p.split('/').includes('..'), 'lanes_root must not contain .. segments')
      .refine(
        (p) => !['/', '~/', '~'].includes(p.replace(/\/+$/, '') || '/'),
        'lanes_root must be a folder below the home, not the home or / itself',
      )
      .refine(
        (p) => !/^\/(tmp|var\/tmp)(\/|$)/.test(p),
        'lanes_root must not be under /tmp: lanes must outlive reboots',
      ),
    /** Extra `-o Key=Value` options for this host (Port, IdentityFile, UserKnownHostsFile …). */
    ssh_options: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z][A-Za-z0-9]*=[^\0\n\r]+$/, 'an ssh option is Key=Value, as ssh -o takes it')
          .superRefine((o, ctx) => {
            const key = o.split('=')[0];
            if (SVC_SSH_OPTIONS.some((k) => k.toLowerCase() === key.toLowerCase()))
              ctx.addIssue({
                code: 'custom',
                message: `ssh option ${key} is set by svc itself (connection sharing, batch mode); remove it`,
              });
          }),
      )
      .optional(),
  })
  .strict();
export type HostEntry = z.infer<typeof HostEntry>;

export const ReviewRoles = z
  .object({
    mode: ReviewMode.optional(),
    model: ModelName.optional(),
    harness: HarnessName.optional(),
    effort: Effort.optional(),
    /** Seconds without a push before a head change starts a review of the newest head (default 60; 0: every push). */
    debounce: z.number().int().min(0).max(3600).optional(),
    sub: z
      .partialRecord(ReviewLane, z.object({ model: ModelName.optional(), harness: HarnessName.optional() }).strict())
      .optional(),
  })
  .strict();

/** How a notify target is reached: a JSON webhook, an ntfy-style topic URL, a Slack-compatible incoming webhook. */
export const NOTIFY_KINDS = ['webhook', 'ntfy', 'slack'] as const;

/** One outbound target of `notify:` (server/notify/): the daemon posts each new inbox item of its kinds there. */
export const NotifyTarget = z
  .object({
    name: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9_-]{0,31}$/,
        'a target name is lowercase letters, digits, - and _, at most 32 characters',
      ),
    kind: z.enum(NOTIFY_KINDS, { message: `kind is one of ${NOTIFY_KINDS.join(', ')}` }),
    url: z
      .string()
      .max(2048)
      .superRefine((u, ctx) => {
        let url: URL;
        try {
          url = new URL(u);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'url must be an absolute http:// or https:// URL' });
          return;
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          ctx.addIssue({ code: 'custom', message: 'url must be an http:// or https:// URL' });
        else if (url.username || url.password)
          ctx.addIssue({
            code: 'custom',
            message: 'url must not carry a user or password; put the credential in secret: (sent as a bearer token)',
          });
      }),
    /** The inbox kinds it wants; default every kind. */
    kinds: z.array(InboxKind).min(1, 'kinds names at least one inbox kind (leave it out for all)').optional(),
    /** Sent as `Authorization: Bearer <secret>`, and nowhere else (never in a payload, a log line or svc doctor). */
    secret: z.string().min(1, 'secret must not be empty (leave it out for none)').max(4096).optional(),
  })
  .strict();
export type NotifyTarget = z.infer<typeof NotifyTarget>;

/** Every inbox kind, what a target without `kinds` wants. */
export const ALL_NOTIFY_ITEM_KINDS: readonly InboxKind[] = INBOX_KINDS;

export const NotifyTargets = z.array(NotifyTarget).superRefine((targets, ctx) => {
  const seen = new Set<string>();
  targets.forEach((t, i) => {
    if (seen.has(t.name))
      ctx.addIssue({
        code: 'custom',
        path: [i, 'name'],
        message: `two targets are named '${t.name}'; names are unique`,
      });
    seen.add(t.name);
  });
});

/** A size in MiB for reap's park limits. */
const ParkMb = z
  .number()
  .int('a size is a whole number of MiB')
  .min(1, 'a size is at least 1 MiB')
  .max(1_048_576, 'a size is at most 1,048,576 MiB (1 TiB)');

export const ConfigFile = z
  .object({
    harnesses: z.record(HarnessName, HarnessProfile).default({}),
    hosts: z.record(HostName, HostEntry).default({}),
    roles: z.object({ review: ReviewRoles.optional() }).catchall(RoleDefaults).optional(),
    /** `svc lane reap --park`'s limits on what it copies into SVC_HOME (server/reap/parkSize.ts), in MiB. */
    reap: z
      .object({
        /** Over this the reap's report warns, naming the largest files (default 100). */
        park_warn_mb: ParkMb.optional(),
        /** Over this the reap is refused before anything is stopped or changed (default 1024). */
        park_max_mb: ParkMb.optional(),
      })
      .strict()
      .optional(),
    /** How the daemon learns lanes' git facts (server/git/dirtyFlags.ts), read at its start. */
    git: z
      .object({
        /** kept (the default): answers kept under watches and across restarts; plain: `git status` per worktree in parallel. */
        dirty_flags: z.enum(['plain', 'kept']).optional(),
      })
      .strict()
      .optional(),
    lanes: z
      .object({
        /** The layout of a new local lane's git state (LANE_GIT_LAYOUTS above); DEFAULT_LANE_GIT when unset. */
        git: LaneGitLayout.optional(),
      })
      .strict()
      .optional(),
    /** Outbound targets told of each new inbox item (server/notify/). */
    notify: NotifyTargets.default([]),
    http: z
      .object({
        /** Fixed port of the HTTP API on 127.0.0.1 (webhook forwarders keep their target); default any free port. */
        port: z.number().int().min(1).max(65535).optional(),
      })
      .strict()
      .optional(),
    codehost: z
      .object({
        github: z
          .object({
            token: z.string().optional(),
            webhook_secret: z.string().optional(),
            /** A second identity (bot) for reviews, comments and statuses, so reviews of svc's own PRs are formal. */
            reviewer_token: z.string().optional(),
            /** How `svc pr merge` merges; default the first the repository allows of merge, squash, rebase. */
            merge_method: z.enum(['merge', 'squash', 'rebase']).optional(),
            /** The login svc writes reviews and comments as (the reviewer token's, when set), for tokens
             *  that cannot read GET /user: an App installation (`<app-slug>[bot]`), Actions (`github-actions[bot]`). */
            login: z
              .string()
              .regex(
                /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/,
                'a GitHub login, such as octocat or my-app[bot]',
              )
              .optional(),
            /** Seconds between conditional reads of the open PRs (catching up missed webhooks); 0 turns it off. Default 60. */
            poll_s: z
              .number()
              .int()
              .refine((n) => n === 0 || (n >= 10 && n <= 86_400), 'poll_s is 0 (off) or 10 to 86400 seconds')
              .optional(),
          })
          .strict()
          .optional(),
        local: z
          .object({
            /** Login that opens and merges PRs on the local host (default `svc`). */
            user: z.string().min(1).optional(),
            /** Login the service reviews as; default the same as `user`, so own-PR refusal → marker comments. */
            reviewer: z.string().min(1).optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFile>;

/** Turns zod issues into one line per field: `<file>: <field.path>: <message>`. */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues
    .map((i) => `${file}: ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('\n');
}
