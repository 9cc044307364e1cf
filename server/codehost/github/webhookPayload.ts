// A verified webhook body → the fields svc reads, or a refusal saying what is wrong.
// GitHub sends JSON either as the body (`application/json`) or, with its default content
// type, form-encoded in a `payload` field. Only the fields svc uses are checked; any
// other content is left alone, so every payload GitHub documents passes.
import { z } from 'zod';

const Sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);
const Repo = z.looseObject({ full_name: z.string().min(1) });

const Common = z.looseObject({
  action: z.string().optional(),
  repository: Repo.optional(),
});

const PullRequestEvent = Common.extend({
  before: Sha.optional(),
  after: Sha.optional(),
  /** On `edited`: what changed (`base` when the PR was moved to another base branch). */
  changes: z.looseObject({ base: z.looseObject({}).optional() }).optional(),
  pull_request: z.looseObject({
    number: z.number().int().positive(),
    draft: z.boolean().optional(),
    updated_at: z.string().optional(),
    base: z.looseObject({ ref: z.string() }).optional(),
    // `repo` is null once the fork it came from was deleted.
    head: z.looseObject({ ref: z.string(), sha: Sha, repo: Repo.nullable().optional() }),
  }),
});

const IssueCommentEvent = Common.extend({
  issue: z.looseObject({ number: z.number().int().positive(), pull_request: z.looseObject({}).optional() }),
  comment: z.looseObject({ id: z.number().int() }),
});

export type PullRequestPayload = z.infer<typeof PullRequestEvent>;
export type IssueCommentPayload = z.infer<typeof IssueCommentEvent>;
export type WebhookPayload = z.infer<typeof Common> & Partial<PullRequestPayload> & Partial<IssueCommentPayload>;

const SCHEMAS: Record<string, z.ZodType> = { pull_request: PullRequestEvent, issue_comment: IssueCommentEvent };

export type ParsedPayload =
  { ok: true; payload: WebhookPayload } | { ok: false; reason: 'badJson' | 'badPayload'; error: string };

export function parseWebhookPayload(event: string, type: 'json' | 'form', body: string): ParsedPayload {
  let text: string | null = body;
  if (type === 'form') {
    text = new URLSearchParams(body).get('payload');
    if (text === null) return { ok: false, reason: 'badPayload', error: 'the form-encoded body has no payload field' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      ok: false,
      reason: 'badJson',
      error: type === 'form' ? 'the payload field is not JSON' : 'the body is not JSON',
    };
  }
  const parsed = (SCHEMAS[event] ?? Common).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : 'the payload';
    return { ok: false, reason: 'badPayload', error: `not a ${event} payload: ${where}: ${issue.message}` };
  }
  return { ok: true, payload: parsed.data as WebhookPayload };
}
