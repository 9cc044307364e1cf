// `npm run commands`: writes the command table's contributions (extension/commands/
// contributions.ts) into package.json, leaving every other key as it is. Run it after
// changing extension/commands/commandTable.ts; the unit tier fails until it has run.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contributions } from '../extension/commands/contributions';

const file = path.resolve(__dirname, '..', 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { contributes: Record<string, unknown> };
const { commands, menus, keybindings } = contributions();
pkg.contributes.commands = commands;
pkg.contributes.menus = menus;
pkg.contributes.keybindings = keybindings;
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(
  `package.json: ${commands.length} commands, ${Object.values(menus).flat().length} menu items, ${keybindings.length} keybindings`,
);
