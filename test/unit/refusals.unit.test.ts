// Each domain lists its refusal reasons once (shared/refusals/<domain>.ts) and makes every
// message in one refusals file. The types keep a file from using a reason its list lacks;
// this keeps a list from holding a reason its file never makes (a stale name the
// extension would match on in vain). The lint keeps refusals from being made elsewhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODEHOST_REFUSALS } from '../../shared/refusals/codehost';
import { CONVERSATION_REFUSALS } from '../../shared/refusals/conversations';
import { REAP_ERRORS, REAP_REFUSALS } from '../../shared/refusals/reap';

const ROOT = path.join(__dirname, '..', '..');

const DOMAINS: { name: string; reasons: readonly string[]; file: string }[] = [
  { name: 'reap', reasons: [...REAP_REFUSALS, ...REAP_ERRORS], file: 'server/reap/reapErrors.ts' },
  { name: 'code host', reasons: CODEHOST_REFUSALS, file: 'server/codehost/codehostRefusals.ts' },
  { name: 'conversations', reasons: CONVERSATION_REFUSALS, file: 'server/conversations/conversationRefusals.ts' },
];

describe('refusals: one list and one file per domain', () => {
  for (const d of DOMAINS) {
    it(`${d.name}: every listed reason is made in ${d.file}`, () => {
      const text = fs.readFileSync(path.join(ROOT, d.file), 'utf8');
      const missing = d.reasons.filter((r) => !text.includes(`'${r}'`));
      assert.deepEqual(missing, [], `listed but never made in ${d.file}`);
    });
  }
});
