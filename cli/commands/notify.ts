// svc notify test: the person's check that a notify target (config.yaml `notify:`) works.
// The daemon posts one test notice to it now, outside the outbox; agents are refused.
import { notifyTest } from '../../shared/protocol/notify';
import { bool, JSON_FLAG, printJson } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

export const notifyCommands: CommandSpec[] = [
  {
    path: ['notify', 'test'],
    summary: 'send one test notice to a notify target of config.yaml and say what it answered (exit 1 if not 2xx)',
    usage: ['<target> [--json]'],
    flags: { ...JSON_FLAG },
    positionals: [{ name: 'target', required: true }],
    details:
      'Targets are configured under notify: in SVC_HOME/config.yaml; the daemon tells them of each new inbox item by itself, and svc doctor shows what each was sent and gave up.\nExit: 0 the target answered 2xx · 1 it did not, or a usage or request error.',
    async run(a, io) {
      const r = await withDaemon(io, (c) => c.request(notifyTest, { target: a.positionals[0] }));
      if (bool(a, 'json')) printJson(io, r);
      else if (r.delivered) io.out(`Sent a test notice to ${r.target} (${r.kind}): ${r.outcome}\n`);
      else io.err(`the test notice to ${r.target} (${r.kind}) was not acknowledged: ${r.outcome}\n`);
      return r.delivered ? 0 : 1;
    },
  },
];
