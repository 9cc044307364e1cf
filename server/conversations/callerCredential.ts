// Who is calling. A request that says it comes from an agent's conversation (`caller`,
// from $SVC_CONVERSATION) must carry that conversation's credential ($SVC_CALLER_TOKEN,
// which svc puts in each agent's environment and the shim presents): otherwise any
// agent could set SVC_CONVERSATION to another's id and launch or report as it.
// A credential is HMAC-SHA256(home key, conversation id): nothing to store per
// conversation, and a resumed agent gets the same one. The key is SVC_HOME/caller.key
// (0600, made on first use). A request that claims no conversation is a person's.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { callerNotProvenError } from './conversationRefusals';

export class CallerCredentials {
  private key?: Buffer;

  constructor(private readonly svcHome: string) {}

  /** The credential of conversation `id`. */
  tokenFor(id: number): string {
    return crypto.createHmac('sha256', this.homeKey()).update(`svc-conversation:${id}`).digest('hex');
  }

  /** Refuses unless `token` is conversation `conv`'s credential. */
  check(conv: { id: number; name: string }, token: string | undefined): void {
    const expected = Buffer.from(this.tokenFor(conv.id));
    const given = Buffer.from(token ?? '');
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return;
    throw callerNotProvenError(conv, Boolean(token));
  }

  private homeKey(): Buffer {
    if (this.key) return this.key;
    const file = path.join(this.svcHome, 'caller.key');
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const hex = fs.readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(hex))
      throw new Error(
        `${file} is not a caller key (64 hex digits); move it away and restart the daemon to make a new one (running agents then need a restart)`,
      );
    this.key = Buffer.from(hex, 'hex');
    return this.key;
  }
}
