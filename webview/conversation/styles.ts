// The Conversation panel's styles: theme variables only (right in light, dark and
// high-contrast themes: borders fall back to the contrast border).
export const conversationStyles = `
  body { padding: 0 16px 12px; }
  header { position: sticky; top: 0; z-index: 1; padding: 8px 0 6px; background: var(--vscode-editor-background);
    border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
  header h1 { font-size: 1.2em; margin: 0; flex-basis: 100%; }
  header .facts { display: flex; flex-wrap: wrap; gap: 4px 12px; color: var(--vscode-descriptionForeground); }
  header .header-actions { margin-left: auto; display: flex; gap: 6px; align-items: center; }
  header .preview-mark { font-style: italic; }
  .activity { display: inline-flex; gap: 4px; align-items: center; color: var(--vscode-foreground); font-weight: 600; }
  .activity.needs-you { color: var(--vscode-editorWarning-foreground); }
  .activity.failed-to-start { color: var(--vscode-errorForeground); }
  .banner { margin: 8px 0; padding: 6px 8px; border-left: 3px solid var(--vscode-editorWarning-foreground); background: var(--vscode-textBlockQuote-background); }
  .banner[hidden] { display: none; }
  .ask-slot.disabled { opacity: 0.6; }
  .transcript { display: flex; flex-direction: column; gap: 8px; padding: 8px 0; }
  .who { font-size: 0.85em; text-transform: uppercase; letter-spacing: 0.04em; }
  .prompt { padding: 4px 8px; border-left: 3px solid var(--vscode-textLink-foreground); background: var(--vscode-textBlockQuote-background); }
  .message { padding: 0 2px; }
  .report { padding: 4px 8px; margin-top: 8px; border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent)); border-radius: 3px; }
  .md p { margin: 4px 0; }
  .md pre, pre.output { padding: 6px 8px; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size);
    background: var(--vscode-textCodeBlock-background); border-radius: 3px; margin: 4px 0; }
  .md code, code.title { font-family: var(--vscode-editor-font-family); }
  /* High-contrast themes give inline code the selection's colours: outline it instead, on the page's own background. */
  body.vscode-high-contrast .md :not(pre) > code, body.vscode-high-contrast-light .md :not(pre) > code {
    color: var(--vscode-editor-foreground); background: transparent; border: 1px solid var(--vscode-contrastBorder); border-radius: 3px; padding: 0 3px; }
  .tool { border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent)); border-radius: 3px; padding: 2px 6px; }
  .tool summary { display: flex; gap: 6px; align-items: center; cursor: pointer; }
  .tool[data-status="failed"] { border-color: var(--vscode-errorForeground); }
  .tool .status { margin-left: auto; }
  .plan ul { list-style: none; padding-left: 4px; margin: 4px 0; }
  .plan li { display: flex; gap: 6px; align-items: center; }
  .plan li[data-status="completed"] span { text-decoration: line-through; color: var(--vscode-descriptionForeground); }
  .ask-line { display: flex; gap: 6px; align-items: center; }
  .note { font-size: 0.9em; }
  .thought .text { white-space: pre-wrap; }
  .ask-slot { position: sticky; bottom: 0; background: var(--vscode-editor-background); }
  .needs-you { margin: 8px 0; padding: 8px; border: 1px solid var(--vscode-editorWarning-foreground); border-radius: 3px; }
  .needs-you-head { display: flex; gap: 6px; align-items: center; margin-bottom: 6px; flex-wrap: wrap; }
  .ask-options { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
  .ask-text { min-width: 240px; flex: 1; }
  .composer { display: flex; flex-direction: column; gap: 6px; margin-top: 8px; }
  .composer vscode-textarea { width: 100%; }
  .composer-actions { display: flex; gap: 8px; align-items: center; justify-content: flex-end; }
  .composer-status { flex: 1; }
  .composer-actions [hidden], .stopped-note[hidden] { display: none; }
  .offer { display: inline-flex; gap: 6px; }
`;
