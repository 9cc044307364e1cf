// Report bodies as HTML for the run record. Agents write them, so nothing in them may run
// or load: markdown-it with raw HTML off (a `<script>` is text), its link check (no
// javascript:, vbscript:, file: or data: links), images shown as their address instead of
// loaded, and links that open apart from the page without a referrer. The page's CSP
// forbids every load besides; no DOM here, so DOMPurify (the webviews' second pass) has
// nothing to run on, and escaping is the whole defence.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
md.linkify.set({ fuzzyLink: false });

md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx];
  const src = t.attrGet('src') ?? '';
  const alt = t.children?.map((c) => c.content).join('') ?? '';
  return `<span class="img">[image${alt ? `: ${md.utils.escapeHtml(alt)}` : ''} — ${md.utils.escapeHtml(src)}]</span>`;
};
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow');
  tokens[idx].attrSet('target', '_blank');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function markdownHtml(text: string): string {
  return md.render(text);
}

export function escapeHtml(text: string): string {
  return md.utils.escapeHtml(text);
}
