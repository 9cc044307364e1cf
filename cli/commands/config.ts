// svc config get|set|models — role and review settings without editing YAML. The daemon
// validates and writes (keeping the files' comments); this only formats.
import { CONFIG_KEY_FORMS } from '../../shared/configKeys';
import { table } from './table';
import { configGet, configModels, configSet } from '../../shared/protocol/config';
import type { ConfigEntry } from '../../shared/protocol/config';
import { bool, JSON_FLAG, printJson, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

const KEYS_HELP = `Keys:\n${CONFIG_KEY_FORMS.map((k) => `  ${k}`).join('\n')}`;

/** Where a value comes from, in words: `global (/…/config.yaml)`, `unset: <consequence>`. */
export function sourceText(e: ConfigEntry): string {
  if (e.source === 'default' || e.source === 'unset') return `${e.source}: ${e.whenUnset}`;
  if (e.from !== e.key) return `${e.source}, inherited from ${e.from} (${e.file})`;
  return `${e.source} (${e.file})`;
}

/** The SOURCE column of the list: short, the file is implied by the source. */
function sourceCell(e: ConfigEntry): string {
  return e.from !== null && e.from !== e.key ? `${e.source} (${e.from})` : e.source;
}

export const configCommands: CommandSpec[] = [
  {
    path: ['config', 'get'],
    summary: 'print a role or review setting (no key: every setting, with where each comes from)',
    usage: ['[<key>] [--show-origin] [--json]'],
    flags: {
      'show-origin': { type: 'boolean', help: 'print where the value comes from before it, tab-separated' },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'key' }],
    details: `With a key, prints the value alone, for $(svc config get <key>) (as git config --get does); an unset key prints nothing and exits 1, saying on stderr what happens while it is unset.\n--show-origin prints <source>\\t<value>; --json the whole entry. Without a key, a table KEY VALUE SOURCE.\n${KEYS_HELP}`,
    async run(a, io) {
      const key = a.positionals[0];
      const { entries } = await withDaemon(io, (c) => c.request(configGet, key === undefined ? {} : { key }));
      if (key !== undefined) {
        const e = entries[0];
        if (bool(a, 'json')) printJson(io, e);
        else if (e.value === null) {
          io.err(`${e.key} is not set: ${e.whenUnset}\n`);
          return 1;
        } else io.out(bool(a, 'show-origin') ? `${sourceText(e)}\t${e.value}\n` : `${e.value}\n`);
      } else if (bool(a, 'json')) printJson(io, entries);
      else
        io.out(
          table(
            ['KEY', 'VALUE', 'SOURCE'],
            entries.map((e) => [e.key, e.value ?? '-', sourceCell(e)]),
          ),
        );
      return 0;
    },
  },
  {
    path: ['config', 'set'],
    summary: 'set a role or review setting in config.yaml or projects.yaml (no value, or --unset: remove it)',
    usage: ['<key> <value> [--json]', '<key> [--unset] [--json]'],
    flags: { unset: { type: 'boolean', help: 'remove the key (the same as giving no value)' }, ...JSON_FLAG },
    positionals: [{ name: 'key', required: true }, { name: 'value' }],
    details: `The value is validated like the file itself; a refused value leaves the file unchanged (exit 1).\nComments and layout of the file are kept.\n${KEYS_HELP}`,
    async run(a, io) {
      const [key, value] = a.positionals;
      if (bool(a, 'unset') && value !== undefined) throw new UsageError('give a value or --unset, not both');
      const r = await withDaemon(io, (c) => c.request(configSet, { key, value: value ?? null }));
      if (bool(a, 'json')) printJson(io, r);
      else if (value !== undefined) {
        io.out(
          r.changed
            ? `Set ${key} to ${r.entry.value} in ${r.file}\n`
            : `${key} is already ${r.entry.value}; ${r.file} is unchanged\n`,
        );
      } else {
        const now = r.entry.value === null ? sourceText(r.entry) : `now ${r.entry.value}, ${sourceText(r.entry)}`;
        io.out(
          r.changed ? `Unset ${key} in ${r.file}; ${now}\n` : `${key} was not set; ${r.file} is unchanged; ${now}\n`,
        );
      }
      return 0;
    },
  },
  {
    path: ['config', 'models'],
    summary: 'list the models a harness offers (asked of the harness over ACP, cached 10 minutes)',
    usage: ['<harness> [--refresh] [--json]'],
    flags: { refresh: { type: 'boolean', help: 'ask the harness again instead of using the cache' }, ...JSON_FLAG },
    positionals: [{ name: 'harness', required: true }],
    details: 'Any model name may be set besides these. Exit 1 when the harness cannot tell (the reason on stderr).',
    async run(a, io) {
      const r = await withDaemon(io, (c) =>
        c.request(configModels, { harness: a.positionals[0], refresh: bool(a, 'refresh') || undefined }),
      );
      if (bool(a, 'json')) printJson(io, r);
      else if (r.source === 'unavailable') {
        io.err(`${r.reason}\n`);
        return 1;
      } else io.out(r.models.map((m) => `${m}\n`).join(''));
      return 0;
    },
  },
];
