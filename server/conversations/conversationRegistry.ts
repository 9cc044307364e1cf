// The conversation layer's rows: every conversation the store holds (roots, lanes,
// successors, review and work agents), their transcripts and credentials, and the events
// the features above hear of them. Nothing here runs an agent: the session supervisor
// (conversationService.ts) builds on this and owns the live harness sessions.
import * as path from 'node:path';
import type { ConversationKind } from '../../shared/protocol/conversations';
import type { SandboxMode } from '../../shared/config';
import type { App } from '../app';
import { resolveProfile } from '../harness/profiles';
import type { Profile } from '../harness/profiles';
import { UnsyncedWriter } from '../store/unsyncedWriter';
import { logger } from '../util/log';
import { CallerCredentials } from './callerCredential';
import { ConversationEvents } from './conversationEvents';
import type { ConversationEvent } from './conversationEvents';
import { nameTakenError, unknownConversationError } from './conversationRefusals';
import { ConversationStore } from './conversationStore';
import type { ConversationRow, ListedRow } from './conversationStore';
import { checkName, slugify, uniqueName } from './names';
import { lastLines } from './transcriptText';
import { TranscriptStore } from './transcriptStore';

const log = logger('conversations');

export interface CreateOptions {
  kind: ConversationKind;
  name?: string;
  title: string;
  project?: string | null;
  cwd: string;
  harness: string;
  model: string;
  effort?: string | null;
  parentId?: number | null;
  issueId?: string | null;
  /** The first message. */
  prompt: string;
  /** Extra environment for the agent (e.g. SVC_REVIEW_* for reviewers). */
  extraEnv?: Record<string, string>;
  /** Play lanes: launched without service context (no SVC_CONVERSATION, SVC_HOME, shim on PATH). */
  bare?: boolean;
  /** The role's permission policy; default by kind (a person's conversations ask, the rest run unattended). */
  permissions?: 'ask' | 'auto';
  /** The host (config.yaml hosts.<name>) the agent runs on over SSH; absent: this machine. */
  host?: string | null;
  /** A lane's sandbox (server/sandbox/); absent: not a lane, its agent runs as the person. */
  sandbox?: SandboxMode | null;
}

export class ConversationRegistry {
  readonly store: ConversationStore;
  readonly transcript: TranscriptStore;
  /** Each agent's credential, presented by its shim with every request it makes as itself. */
  readonly credentials: CallerCredentials;
  /** What the features above hear: changed, started, ended, spawnError, turnEnded, transcript, usage. */
  readonly events = new ConversationEvents();

  constructor(protected readonly app: App) {
    // One connection at synchronous=NORMAL for the transcript rows and the row facts no
    // caller is told of as kept (store/unsyncedWriter.ts).
    const unsynced = new UnsyncedWriter(app.db);
    this.store = new ConversationStore(app.db, unsynced);
    this.credentials = new CallerCredentials(app.paths.home);
    this.transcript = new TranscriptStore(
      app.db,
      () => app.now(),
      (ids) => {
        for (const id of ids) {
          this.events.emit('transcript', id);
          app.notify({ topic: 'transcript', id });
        }
      },
      unsynced,
    );
    // After the agents' stop (their last rows), before the store closes.
    app.onStop(() => {
      this.transcript.close();
      unsynced.close();
    });
  }

  /** Subscribes to `changed` (any state change of a conversation); returns an unsubscribe. */
  onChanged(fn: (id: number) => void): () => void {
    return this.events.on('changed', fn);
  }

  /** Subscribes to cost reports (a usage_update carrying a cost, already stored); returns an unsubscribe. */
  onUsage(fn: (id: number) => void): () => void {
    return this.events.on('usage', fn);
  }

  get(id: number): ConversationRow | undefined {
    return this.store.get(id);
  }

  /** `#id`, id, name or `conv-<name>`; throws notFound. */
  resolve(ref: string | number): ConversationRow {
    const r = String(ref).trim();
    const idMatch = /^#?(\d+)$/.exec(r);
    const row =
      (idMatch ? this.store.get(Number(idMatch[1])) : undefined) ??
      this.store.byName(r) ??
      (r.startsWith('conv-') ? this.store.byName(r.slice(5)) : undefined);
    if (!row) throw unknownConversationError(r);
    return row;
  }

  /** Refuses unless `token` is the credential of the `caller` conversation (unknown callers pass: the method refuses them). */
  proveCaller(caller: string, token: string | undefined): void {
    let conv;
    try {
      conv = this.resolve(caller);
    } catch {
      return;
    }
    this.credentials.check(conv, token);
  }

  /** Rows without their first prompt (lists never show it; a start reads it by id). */
  list(opts: { archived?: boolean } = {}): ListedRow[] {
    return this.store.all(opts);
  }

  /** Inserts the row only (no process), so a caller can do it inside its own transaction. */
  insert(o: CreateOptions): ConversationRow {
    this.profile(o.harness); // an unknown harness is refused here, before any row exists
    let name: string;
    if (o.name) {
      checkName(o.name);
      const taken = this.store.byName(o.name);
      if (taken) throw nameTakenError(o.name, taken.id);
      name = o.name;
    } else name = uniqueName(slugify(o.title || o.prompt.split('\n')[0]), (n) => this.store.nameTaken(n));
    const row = this.store.insert({
      name,
      title: o.title,
      kind: o.kind,
      parentId: o.parentId ?? null,
      project: o.project ?? null,
      cwd: path.resolve(o.cwd),
      harness: o.harness,
      model: o.model,
      effort: o.effort ?? null,
      issueId: o.issueId ?? null,
      bare: o.bare ?? false,
      extraEnv: o.extraEnv ?? null,
      permissions: o.permissions ?? null,
      host: o.host ?? null,
      sandbox: o.sandbox ?? null,
      firstPrompt: o.prompt,
      createdAt: this.app.now(),
    });
    this.changed(row.id);
    return row;
  }

  recordSpawnError(id: number, message: string): void {
    this.store.update(id, { spawnError: message, endedAt: this.app.now() });
    this.transcript.append(id, 'lifecycle', { event: 'spawnError', text: `failed to start: ${message}` });
    this.fire('spawnError', id);
  }

  cost(id: number): { amount: number; currency: string } | null {
    const row = this.store.get(id);
    return row && row.costAmount !== null ? { amount: row.costAmount, currency: row.costCurrency ?? 'USD' } : null;
  }

  unarchive(id: number): void {
    this.mustGet(id);
    this.store.update(id, { archivedAt: null });
    this.changed(id);
  }

  /** The agent's recent output as text lines (prompts, messages, tool output). */
  outputLines(ref: string | number, n: number): string[] {
    const row = typeof ref === 'number' ? this.mustGet(ref) : this.resolve(ref);
    let limit = Math.max(200, n * 3);
    for (;;) {
      const rows = this.transcript.tail(row.id, limit);
      const lines = lastLines(rows, n);
      if (lines.length >= n || rows.length < limit) return lines;
      limit *= 4;
    }
  }

  /** Following parent links from a successor until a lane or a root (spec glossary). */
  effectiveLauncher(id: number): ConversationRow {
    let row = this.mustGet(id);
    const seen = new Set<number>();
    while (row.kind === 'successor' && row.parentId !== null && !seen.has(row.id)) {
      seen.add(row.id);
      row = this.mustGet(row.parentId);
    }
    return row;
  }

  protected mustGet(id: number): ConversationRow {
    const row = this.store.get(id);
    if (!row) throw unknownConversationError(id);
    return row;
  }

  protected configFileShown(): string {
    const home = process.env.HOME;
    const file = this.app.paths.config;
    return home && file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
  }

  protected profile(harness: string): Profile {
    return resolveProfile(harness, this.app.config.config(), this.app.distDir, this.configFileShown());
  }

  protected fire(event: ConversationEvent, id: number): void {
    if (event !== 'changed') this.events.emit(event, id);
    this.changed(id);
  }

  protected changed(id: number): void {
    this.events.emit('changed', id);
    this.app.notify({ topic: 'conversations', id });
  }

  protected safely(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      log.warn(`store write failed: ${(e as Error).message}`);
    }
  }
}
