// A whole gauntlet on another host, for real: sshd on 127.0.0.1 with a
// dedicated user whose home is "the other machine". Builders and a critic run there on
// the script harness, report through the forwarded socket, are waited for, listed with git
// facts read over the shared connection, lose their connection mid-run (the master is
// killed while sshd listens no more) and keep running there under svc's relay until svc
// reconnects by itself; one finishes its work and reports, one dies meanwhile and is
// reported as such; they are reaped with --park: the patch comes home beside the others.
// The daemon runs under strace, and never opens a path under the remote home itself.
// One world, one story in order: the parts are lanesRemoteGauntlet (the lanes on the host),
// lanesRemoteReconnect (connection drops), lanesRemoteOutage (while it is down),
// lanesRemoteFinish (reap, the trace, a daemon that died); lanesRemoteSuite has what they share.
import * as path from 'node:path';
import { remoteLaneWorld } from '../helpers/remoteLaneWorld';
import type { RemoteLaneWorld } from '../helpers/remoteLaneWorld';
import { startTracedDaemon } from '../helpers/tracedDaemon';
import { finishOnHost } from './lanesRemoteFinish';
import { gauntletOnHost, scriptsFileOnHost } from './lanesRemoteGauntlet';
import { whileHostUnreachable } from './lanesRemoteOutage';
import { reconnectsToHost } from './lanesRemoteReconnect';
import { remoteSuite } from './lanesRemoteSuite';
import type { RemoteSuite } from './lanesRemoteSuite';

describe('lanes on another host over SSH: a whole gauntlet (real sshd)', function () {
  this.timeout(600_000);
  let world: RemoteLaneWorld;
  let suite: RemoteSuite;

  before(async function () {
    let traceLog = '';
    world = await remoteLaneWorld('remote', {
      beforeWorld: async (scratch) => {
        traceLog = path.join(scratch.root, 'daemon.strace');
        await startTracedDaemon(scratch, traceLog);
      },
    });
    suite = remoteSuite(world, traceLog);
  });
  after(async () => world?.dispose());

  const get = () => suite;
  gauntletOnHost(get);
  reconnectsToHost(get);
  whileHostUnreachable(get);
  scriptsFileOnHost(get);
  finishOnHost(get);
});
