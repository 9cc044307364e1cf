// The vscode-elements controls every page makes the same way.

/** A `vscode-button` labelled `label` that runs `onClick`; `secondary` for the quieter look. */
export function vscodeButton(
  label: string,
  onClick: () => void,
  o: { icon?: string; secondary?: boolean; className?: string } = {},
): HTMLElement {
  const b = document.createElement('vscode-button');
  b.textContent = label;
  if (o.icon) b.setAttribute('icon', o.icon);
  if (o.secondary) b.setAttribute('secondary', '');
  if (o.className) b.className = o.className;
  b.addEventListener('click', onClick);
  return b;
}
