// package.json's command contributions, made from the command table (commandTable.ts):
// `contributes.commands` (each with category svc), `contributes.menus` (the palette's
// `when` clauses and every menu place) and `contributes.keybindings`. `npm run commands` writes them into package.json;
// test/unit/extensionMenus.unit.test.ts fails while package.json differs.
import { COMMANDS } from './commandTable';
import type { CommandSpec, MenuPlace } from './commandTable';

export interface ContributedCommand {
  command: string;
  title: string;
  category: 'svc';
  icon?: string;
}
export interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}
export interface Keybinding {
  command: string;
  key: string;
  when?: string;
}
export type Menus = Record<'commandPalette' | MenuPlace['at'], MenuItem[]>;

/** The clause a command's daemon dependence adds to every place it is offered. */
const CONNECTED = 'svc.daemon == connected';

const and = (...clauses: (string | undefined)[]) => clauses.filter((c) => c).join(' && ');

function menuItem(command: string, spec: CommandSpec, place: MenuPlace): MenuItem {
  const gate = spec.daemon === 'connectedOnly' ? CONNECTED : undefined;
  const group = 'group' in place ? { group: place.group } : {};
  switch (place.at) {
    case 'view/title':
      return { command, when: and(`view == ${place.view}`, place.when, gate), ...group };
    case 'view/item/context':
      return { command, when: and(`view == ${place.view}`, `viewItem =~ /${place.item.source}/`, gate), ...group };
    case 'editor/title':
    case 'webview/context':
      return { command, when: and(place.when, gate), ...group };
  }
}

export function contributions(table: Readonly<Record<string, CommandSpec>> = COMMANDS): {
  commands: ContributedCommand[];
  menus: Menus;
  keybindings: Keybinding[];
} {
  const commands: ContributedCommand[] = [];
  const keybindings: Keybinding[] = [];
  const menus: Menus = {
    commandPalette: [],
    'editor/title': [],
    'view/title': [],
    'view/item/context': [],
    'webview/context': [],
  };
  for (const [command, spec] of Object.entries(table)) {
    commands.push({ command, title: spec.title, category: 'svc', ...(spec.icon ? { icon: `$(${spec.icon})` } : {}) });
    const palette =
      spec.palette === false ? 'false' : and(spec.daemon === 'connectedOnly' ? CONNECTED : undefined, spec.palette);
    if (palette) menus.commandPalette.push({ command, when: palette });
    for (const place of spec.menus ?? []) menus[place.at].push(menuItem(command, spec, place));
    // A shortcut is offered where the palette offers its command, so it never runs one the palette hides.
    if (spec.keys) keybindings.push({ command, key: spec.keys, ...(palette ? { when: palette } : {}) });
  }
  return { commands, menus, keybindings };
}
