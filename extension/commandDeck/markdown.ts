// Escaping for the Markdown tooltips of the trees: values from agents and people (titles,
// branches, models) stay text, never links, HTML or emphasis.

/** A character mdText escapes or flattens: most values (titles, names, activities) hold none. */
const TO_ESCAPE = /[\\`*_{}[\]()#+\-.!|<>~&\n]/;

/** Plain text in Markdown: every character Markdown could read as syntax is escaped. */
export function mdText(s: string): string {
  if (!TO_ESCAPE.test(s)) return s; // the deck writes thousands of these on each change
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, '\\$&').replace(/\r?\n/g, ' ');
}

/** Inline code: a backtick fence longer than any run of backticks inside. */
export function mdCode(s: string): string {
  const flat = s.replace(/\r?\n/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
