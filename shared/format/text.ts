// A field shown as text. Transcript payloads, journal entries and script steps are JSON
// written by an agent or a person, so a field meant to hold text may hold anything:
// strings, numbers and booleans read as themselves, an object or a list as its JSON
// (never "[object Object]"), and a missing field (undefined or null) as the fallback.
export function textOf(v: unknown, fallback = ''): string {
  if (v === undefined || v === null) return fallback;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? fallback;
}
