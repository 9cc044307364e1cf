// svc doctor: what svc needs to run agents (harnesses, Node, git identity, SVC_HOME
// permissions, the daemon, code hosts), each problem with its fix. Exit 0 when nothing is
// a problem, 1 otherwise (notes do not count), so scripts and CI can gate on it.
import { daemonDownReport, doctorText, noModuleReport } from '../../shared/format/doctorText';
import { bindingForThisNode } from '../../shared/node/nativeBinding';
import { doctorRun } from '../../shared/protocol/doctor';
import type { DoctorReport } from '../../shared/protocol/doctor';
import { svcHomeFrom } from '../../shared/svcHome';
import { bool, JSON_FLAG, jsonText } from '../cli';
import type { CommandSpec } from '../cli';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { withDaemon } from '../client';

export const doctorCommands: CommandSpec[] = [
  {
    path: ['doctor'],
    summary:
      'check harnesses, Node, git identity, SVC_HOME, the daemon and code hosts; each problem with its fix (exit 1 on a problem)',
    usage: ['[--json]'],
    flags: { ...JSON_FLAG },
    async run(a, io) {
      let report: DoctorReport;
      try {
        report = await withDaemon(io, (c) => c.request(doctorRun, {}));
      } catch (e) {
        if (e instanceof DaemonRefusal) throw e;
        // A package for another platform, or a Node it has no module for: the daemon cannot
        // start, and the shim can tell why without it (dist/svc.js sits beside dist/native).
        const binding = bindingForThisNode(__dirname);
        report = binding.ok
          ? daemonDownReport((e as Error)?.message ?? String(e), svcHomeFrom(io.env))
          : noModuleReport(binding.problem, binding.fix);
      }
      io.out(bool(a, 'json') ? jsonText(report) : doctorText(report));
      return report.problems === 0 ? 0 : 1;
    },
  },
];
