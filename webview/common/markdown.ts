// Agent-written Markdown → a sanitized DOM fragment: markdown-it with raw HTML off (so a
// `<script>` in a message is text), then DOMPurify on its output, under the page's nonce
// CSP. Links are never followed inside the webview: the page hands them to the host.
import MarkdownIt from 'markdown-it';
import { sanitizedFragment } from './sanitize';

const md = new MarkdownIt({ html: false, linkify: true, breaks: false, typographer: false });
// Only links with a scheme or www. are linked: agents name files (greet.sh, README.md), and
// .sh and .md are top-level domains, so fuzzy linking turned file names into web links.
md.linkify.set({ fuzzyLink: false });

export function markdownFragment(text: string): DocumentFragment {
  return sanitizedFragment(md.render(text));
}

/** A container of rendered Markdown: its link clicks go to `open` instead of navigating. */
export function interceptLinks(container: HTMLElement, open: (href: string) => void): void {
  container.addEventListener('click', (e) => {
    const a = (e.target as Element | null)?.closest?.('a[href]');
    if (!a || !container.contains(a)) return;
    e.preventDefault();
    const href = a.getAttribute('href') ?? '';
    if (href && !href.startsWith('#')) open(href);
  });
}
