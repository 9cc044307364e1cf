// svc host list|check — the hosts of config.yaml that lanes can be placed on.
import { hostCheckText, hostListText } from './hostFormat';
import { hostsCheck, hostsList } from '../../shared/protocol/hosts';
import { bool, JSON_FLAG, jsonText, str } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

export const hostCommands: CommandSpec[] = [
  {
    path: ['host', 'list'],
    summary: 'list the hosts of config.yaml that lanes can run on (svc lane start --host <name>)',
    usage: ['[--json]'],
    flags: { ...JSON_FLAG },
    async run(a, io) {
      const { hosts } = await withDaemon(io, (c) => c.request(hostsList, {}));
      io.out(bool(a, 'json') ? jsonText(hosts) : hostListText(hosts));
      return 0;
    },
  },
  {
    path: ['host', 'check'],
    summary:
      'connect to a host and check what lanes need there: reachable, git, node, the harness, the lanes root, disk (exit 1 on a problem)',
    usage: ['<name> [--harness <h>] [--json]'],
    flags: {
      harness: {
        type: 'string',
        help: 'the harness to look for (default: the one of the roles placed on this host)',
        value: '<h>',
      },
      ...JSON_FLAG,
    },
    positionals: [{ name: 'name', required: true }],
    async run(a, io) {
      const r = await withDaemon(io, (c) =>
        c.request(hostsCheck, { name: a.positionals[0], harness: str(a, 'harness') }),
      );
      io.out(bool(a, 'json') ? jsonText(r) : hostCheckText(r));
      return r.problems === 0 ? 0 : 1;
    },
  },
];
