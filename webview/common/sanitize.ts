// Agent-written content is untrusted: HTML rendered from it goes through DOMPurify, and
// plain text is only ever set as text (never innerHTML). Views use these two helpers.
import DOMPurify from 'dompurify';

/** A sanitized fragment of agent HTML (e.g. rendered Markdown): no scripts, handlers or remote loads. */
export function sanitizedFragment(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style'],
    RETURN_DOM_FRAGMENT: true,
  });
}

/** An element holding `text` as text. */
export function textElement<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text: string,
  className?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.textContent = text;
  if (className) el.className = className;
  return el;
}
