// The HTML shell of every webview: a nonce CSP (scripts only with the nonce, styles and
// fonts only from the extension's dist, nothing remote), the codicon stylesheet with the
// id vscode-elements looks for, base styles in theme variables, and the page's bundle.
// Pure (no vscode) so a unit test can check the policy.
import * as crypto from 'node:crypto';

export interface PageParts {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  title: string;
  /** webview URIs (asWebviewUri) of the bundle and of dist/codicons/codicon.css */
  scriptUri: string;
  codiconCssUri: string;
}

export function makeNonce(): string {
  return crypto
    .randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export function contentSecurityPolicy(p: Pick<PageParts, 'cspSource' | 'nonce'>): string {
  return [
    `default-src 'none'`,
    `img-src ${p.cspSource} data:`,
    `font-src ${p.cspSource}`,
    `style-src ${p.cspSource} 'nonce-${p.nonce}'`,
    `script-src 'nonce-${p.nonce}'`,
  ].join('; ');
}

const BASE_STYLE = `
  body { padding: 0 12px 8px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  a { color: var(--vscode-textLink-foreground); }
  a:hover { color: var(--vscode-textLink-activeForeground); }
  :focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  .muted { color: var(--vscode-descriptionForeground); }
  .error { color: var(--vscode-errorForeground); }
`;

export function pageHtml(p: PageParts): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${attr(p.title)}</title>
<link rel="stylesheet" href="${attr(p.codiconCssUri)}" id="vscode-codicon-stylesheet" nonce="${p.nonce}">
<style nonce="${p.nonce}">${BASE_STYLE}</style>
</head>
<body>
<main id="root" aria-live="polite"></main>
<script nonce="${p.nonce}" src="${attr(p.scriptUri)}"></script>
</body>
</html>`;
}
