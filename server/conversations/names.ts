// Conversation names: unique slugs. A name is never all digits (that reads as an id)
// and never starts with `#` or `conv-` (those are reference prefixes). Up to 128 characters:
// a lane's name `<run>-<key>-<role>-i<n>-r<k>` with the longest keys the spec allows (32 and
// 40) and the longest role is about 100, and every valid pair of keys must give a name.
import { badNameError } from './conversationRefusals';

export const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;

export function slugify(text: string, max = 40): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return s || 'conversation';
}

export function checkName(name: string): void {
  if (!NAME_PATTERN.test(name)) throw badNameError(name, 'pattern', NAME_PATTERN);
  if (/^\d+$/.test(name)) throw badNameError(name, 'digits', NAME_PATTERN);
  if (name.startsWith('conv-')) throw badNameError(name, 'prefix', NAME_PATTERN);
}

/** `base`, else `base-2`, `base-3`, … whichever is free. */
export function uniqueName(base: string, taken: (n: string) => boolean): string {
  let b = base;
  if (/^\d+$/.test(b)) b = `c${b}`;
  if (b.startsWith('conv-')) b = b.slice(5) || 'conversation';
  if (!taken(b)) return b;
  for (let i = 2; ; i++) {
    const n = `${b}-${i}`;
    if (!taken(n)) return n;
  }
}

/** Converts a glob (`*`, `?`) to an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`);
}
