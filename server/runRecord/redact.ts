// What a shared page must never hold: the home folder's path (shown as `~`, also inside a
// quoted restore command) and credentials an agent may have written into a report: known
// token shapes, `Authorization: Bearer …`, credentials in URLs (`https://x-access-token:…@`),
// and the values of variables named like secrets in any case (`GITHUB_TOKEN=`, `password:`).
// Applied to the whole record before rendering, so the HTML and --json hold the same facts.

const REDACTED = '[redacted]';

const TOKEN_SHAPES: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g, // Anthropic, OpenAI
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, // Slack
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
  /\bglpat-[A-Za-z0-9_-]{20,}\b/g, // GitLab
];
/** `Bearer <token>` wherever it appears, and the whole value of an Authorization header (Basic, token, …). */
const BEARER = /\b(Bearer)(\s+)([A-Za-z0-9._~+/=-]{8,})/gi;
const AUTH_HEADER = /\b(Authorization\s*:\s*)([^\n'"]+)/gi;
/** `scheme://user:password@host` and `scheme://token@host`: everything before the @. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@'"<>]+)@/gi;
/**
 * `NAME=value` / `NAME: value` where the name says it is secret, in any case. A bare count
 * (`tokens: 1200`, a report's usage) is no secret and stays.
 */
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|CREDENTIALS?|PRIVATE_KEY|ACCESS_KEY)[A-Za-z0-9_]*)(\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s'"]+)/gi;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function redactText(text: string, home: string | undefined): string {
  let out = text;
  if (home && home.length > 1) {
    const h = home.replace(/\/+$/, '');
    // The home itself, not a sibling that starts with its name (/home/me, not /home/meg).
    if (h.length > 1) out = out.replace(new RegExp(`${escapeRegExp(h)}(?=$|[/\\s'"\`:;,)\\]}>])`, 'g'), '~');
  }
  for (const re of TOKEN_SHAPES) out = out.replace(re, REDACTED);
  out = out.replace(URL_CREDENTIALS, (_m, scheme: string) => `${scheme}${REDACTED}@`);
  out = out.replace(AUTH_HEADER, (_m, head: string) => `${head}${REDACTED}`);
  out = out.replace(BEARER, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  return out.replace(SECRET_ASSIGNMENT, (m, name: string, sep: string, value: string) =>
    /^\d{1,9}[,.;]?$/.test(value) ? m : `${name}${sep}${REDACTED}`,
  );
}

/** Every string in `value`, redacted; the shape is kept. */
export function redactDeep<T>(value: T, home: string | undefined): T {
  if (typeof value === 'string') return redactText(value, home) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, home)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, home)])) as T;
  return value;
}
