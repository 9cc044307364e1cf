// Page styles as constructable stylesheets: allowed under the nonce CSP without an
// inline <style>, and the same mechanism Lit (vscode-elements) uses. Theme variables only.
export function adoptStyles(css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
