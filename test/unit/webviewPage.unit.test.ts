// The webview HTML shell (extension/webviews/pageHtml.ts): the nonce CSP allows nothing
// remote, no inline script without the nonce, and loads only from the extension's dist.
import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, pageHtml } from '../../extension/webviews/pageHtml';

const parts = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'abc123',
  title: 'Awareness',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/awarenessMain.js',
  codiconCssUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css',
};

describe('webview page shell (extension/webviews/pageHtml.ts)', () => {
  it('has a nonce CSP that denies by default', () => {
    assert.equal(
      contentSecurityPolicy(parts),
      "default-src 'none'; img-src https://file+.vscode-resource.vscode-cdn.net data:; font-src https://file+.vscode-resource.vscode-cdn.net; style-src https://file+.vscode-resource.vscode-cdn.net 'nonce-abc123'; script-src 'nonce-abc123'",
    );
  });

  it('puts the CSP first, the codicon stylesheet under the id vscode-elements needs, and one nonced script', () => {
    const html = pageHtml(parts);
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<link'), 'the CSP must come before any resource');
    assert.match(
      html,
      /<link rel="stylesheet" href="[^"]+\/dist\/codicons\/codicon\.css" id="vscode-codicon-stylesheet" nonce="abc123">/,
    );
    assert.deepEqual(html.match(/<script[^>]*>/g), [
      '<script nonce="abc123" src="https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/awarenessMain.js">',
    ]);
    assert.doesNotMatch(html, /#[0-9a-f]{3,6}\b/i, 'theme variables only, no literal colours');
    assert.doesNotMatch(html, /http:\/\//);
  });

  it('makes a fresh alphanumeric nonce each time', () => {
    const a = makeNonce();
    assert.match(a, /^[A-Za-z0-9]{16,}$/);
    assert.notEqual(a, makeNonce());
  });

  it('escapes what it puts into attributes', () => {
    const html = pageHtml({ ...parts, title: 'a"<b>', scriptUri: 'x"onload="alert(1)' });
    assert.ok(html.includes('<title>a&quot;&lt;b></title>'));
    assert.ok(html.includes('src="x&quot;onload=&quot;alert(1)"'));
  });
});
