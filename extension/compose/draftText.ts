// A draft's text (drafts.ts): the leading Markdown comment that says what the draft is
// for, and the body sent on submit. Pure, for unit tests.

const HEADER_END = '-->';

/** The body of a draft: its text after the leading `<!-- … -->` comment, trimmed. */
export function draftBody(text: string): string {
  const t = text.replace(/^\uFEFF/, '');
  if (t.trimStart().startsWith('<!--')) {
    const end = t.indexOf(HEADER_END);
    if (end >= 0) return t.slice(end + HEADER_END.length).trim();
  }
  return t.trim();
}

/** The draft's first lines: what it is for and how to submit it (a Markdown comment, not part of the body). */
export function draftHeader(lines: string[]): string {
  return `<!--\n${lines.map((l) => `  ${l.replace(/--/g, '—')}`).join('\n')}\n-->\n\n`;
}
