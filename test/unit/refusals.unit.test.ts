// Each domain lists its refusal reasons once (shared/refusals/<domain>.ts) and makes every
// message in one refusals file. The types keep a file from using a reason its list lacks;
// this keeps a list from holding a reason its file never makes (a stale name the
// extension would match on in vain). The lint keeps refusals from being made elsewhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { notRunningError } from '../../server/conversations/conversationRefusals';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { SvcError } from '../../shared/errors';
import { CODEHOST_REFUSALS } from '../../shared/refusals/codehost';
import { CONFIG_REFUSALS } from '../../shared/refusals/config';
import { CONVERSATION_REFUSALS } from '../../shared/refusals/conversations';
import { DAEMON_REFUSALS } from '../../shared/refusals/daemon';
import { GIT_REFUSALS } from '../../shared/refusals/git';
import { HARNESS_REFUSALS } from '../../shared/refusals/harness';
import { HOST_REFUSALS } from '../../shared/refusals/hosts';
import { HTTP_REFUSALS } from '../../shared/refusals/http';
import { ISSUE_REFUSALS } from '../../shared/refusals/issues';
import { LAND_REFUSALS } from '../../shared/refusals/land';
import { LANE_REFUSALS } from '../../shared/refusals/lanes';
import { PROJECT_REFUSALS } from '../../shared/refusals/projects';
import { REAP_ERRORS, REAP_REFUSALS } from '../../shared/refusals/reap';
import { REPORT_REFUSALS } from '../../shared/refusals/reports';
import { REVIEW_REFUSALS } from '../../shared/refusals/review';
import { RPC_REFUSALS } from '../../shared/refusals/rpc';
import { RUN_RECORD_REFUSALS } from '../../shared/refusals/runRecord';
import { SPEND_REFUSALS } from '../../shared/refusals/spend';

const ROOT = path.join(__dirname, '..', '..');

const DOMAINS: { name: string; reasons: readonly string[]; files: string[] }[] = [
  { name: 'reap', reasons: [...REAP_REFUSALS, ...REAP_ERRORS], files: ['server/reap/reapErrors.ts'] },
  { name: 'code host', reasons: CODEHOST_REFUSALS, files: ['server/codehost/codehostRefusals.ts'] },
  { name: 'conversations', reasons: CONVERSATION_REFUSALS, files: ['server/conversations/conversationRefusals.ts'] },
  { name: 'harness', reasons: HARNESS_REFUSALS, files: ['server/harness/harnessRefusals.ts'] },
  { name: 'review', reasons: REVIEW_REFUSALS, files: ['server/review/reviewRefusals.ts'] },
  { name: 'issues', reasons: ISSUE_REFUSALS, files: ['server/issues/issueRefusals.ts'] },
  { name: 'projects', reasons: PROJECT_REFUSALS, files: ['server/projects/projectRefusals.ts'] },
  { name: 'config', reasons: CONFIG_REFUSALS, files: ['server/config/configRefusals.ts'] },
  { name: 'git', reasons: GIT_REFUSALS, files: ['server/git/gitRefusals.ts'] },
  { name: 'lanes', reasons: LANE_REFUSALS, files: ['server/lanes/laneRefusals.ts'] },
  { name: 'land', reasons: LAND_REFUSALS, files: ['server/land/landRefusals.ts'] },
  { name: 'reports', reasons: REPORT_REFUSALS, files: ['server/lanes/reportRefusals.ts'] },
  { name: 'spend', reasons: SPEND_REFUSALS, files: ['server/lanes/spendRefusals.ts'] },
  { name: 'run record', reasons: RUN_RECORD_REFUSALS, files: ['server/runRecord/runRecordRefusals.ts'] },
  { name: 'hosts', reasons: HOST_REFUSALS, files: ['server/hosts/hostRefusals.ts'] },
  { name: 'http', reasons: HTTP_REFUSALS, files: ['server/http/httpRefusals.ts'] },
  { name: 'rpc', reasons: RPC_REFUSALS, files: ['server/rpc/rpcRefusals.ts'] },
  // What a client says in the daemon's stead: an answer without a reason it knows, the shim's own refusals.
  {
    name: 'daemon',
    reasons: DAEMON_REFUSALS,
    files: ['server/daemon/daemonRefusals.ts', 'shared/client/daemonRefusal.ts', 'cli/shimRefusals.ts'],
  },
];

describe('refusals: one list and one file per domain', () => {
  for (const d of DOMAINS) {
    it(`${d.name}: every listed reason is made in ${d.files.join(' or ')}`, () => {
      const text = d.files.map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
      const missing = d.reasons.filter((r) => !text.includes(`'${r}'`));
      assert.deepEqual(missing, [], `listed but never made in ${d.files.join(' or ')}`);
    });
  }
});

describe('refusals: matched by a reason of the union', () => {
  it('SvcError.is and DaemonRefusal.is take only a reason some list holds (the type check fails otherwise)', () => {
    const made = notRunningError({ id: 3, name: 'x' }, 'stopped');
    const answered = new DaemonRefusal(made.message, made.reason, made.kind);
    const e: unknown = made;
    assert.ok(SvcError.is(e, 'notRunning'));
    assert.ok(!SvcError.is(e, 'stillRunning'));
    // @ts-expect-error a misspelt reason does not compile
    assert.ok(!SvcError.is(e, 'notRuning'));
    assert.ok(DaemonRefusal.is(answered, 'notRunning'));
    // @ts-expect-error likewise in a client
    assert.ok(!DaemonRefusal.is(answered, 'notRuning'));
  });
});
