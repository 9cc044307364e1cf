// What a shared page must never hold: the home folder's path (shown as `~`) and
// credentials an agent may have written into a report (known token shapes, and the
// values of variables named like secrets). Applied to the whole record before rendering.

const TOKEN_SHAPES: RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-(?:ant-)?[A-Za-z0-9_-]{20,}\b/g, // Anthropic, OpenAI
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, // Slack
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
];
/** `NAME=value` / `NAME: value` where the name says it is secret. */
const SECRET_ASSIGNMENT = /\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|API_KEY|APIKEY|CREDENTIAL|PRIVATE_KEY)[A-Z0-9_]*)(\s*[=:]\s*)("[^"\n]*"|'[^'\n]*'|[^\s'"]+)/g;

export function redactText(text: string, home: string | undefined): string {
  let out = text;
  if (home && home !== '/' && home.length > 1) out = out.split(home).join('~');
  for (const re of TOKEN_SHAPES) out = out.replace(re, '[redacted]');
  return out.replace(SECRET_ASSIGNMENT, (_m, name: string, sep: string) => `${name}${sep}[redacted]`);
}

/** Every string in `value`, redacted; the shape is kept. */
export function redactDeep<T>(value: T, home: string | undefined): T {
  if (typeof value === 'string') return redactText(value, home) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, home)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, home)])) as T;
  return value;
}
