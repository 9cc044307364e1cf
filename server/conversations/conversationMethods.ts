// The conversations feature: the service, its RPC methods (shared/protocol/conversations.ts),
// GET /api/agents/:name/output, the restart settle and the graceful stop of live agents.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  conversationsAnswer,
  conversationsArchive,
  conversationsFork,
  conversationsHandoff,
  conversationsList,
  conversationsLog,
  conversationsNew,
  conversationsResume,
  conversationsShow,
  conversationsStatus,
  conversationsStop,
  conversationsTell,
  conversationsUnarchive,
} from '../../shared/protocol/conversations';
import type { App } from '../app';
import type { HostLink } from '../hosts/hostLink';
import { badCwdError, badLinesError, noCwdError } from './conversationRefusals';
import { ConversationService } from './conversationService';
import { continuedToolCalls, renderTranscript } from './transcriptText';
import { registerStoppedByDaemon } from './stoppedByDaemonMethods';
import { createSuccessor } from './successors';

/** Conversations wait this long to start unless told not to wait (docs/spec.md: up to 180 s). */
export const START_WAIT_MS = 180_000;

export function registerConversations(app: App, hostLink: HostLink): ConversationService {
  const svc = new ConversationService(app, hostLink);
  svc.settleAfterRestart();
  app.onStop(() => svc.stopAll());
  registerStoppedByDaemon(app, svc, START_WAIT_MS);

  const wait = async (id: number, noWait: boolean | undefined, signal: AbortSignal) => {
    const outcome = noWait ? ('notWaited' as const) : await svc.waitStarted(id, START_WAIT_MS, signal);
    return { conversation: svc.info(svc.get(id)!), outcome };
  };

  app.rpc.handle(conversationsNew, async (p, ctx) => {
    let project: string | null = p.project ?? null;
    let cwd = p.cwd;
    if (project) {
      const proj = app.config.project(project);
      cwd ??= proj.path;
    } else if (cwd) project = app.config.projectForPath(cwd)?.key ?? null;
    if (!cwd) throw noCwdError();
    if (!fs.existsSync(cwd) || !fs.statSync(cwd).isDirectory()) throw badCwdError(cwd);
    const row = svc.create({
      kind: 'root',
      title: p.title ?? firstLine(p.prompt),
      project,
      cwd: path.resolve(cwd),
      harness: p.harness,
      model: p.model,
      effort: p.effort,
      prompt: p.prompt,
    });
    return wait(row.id, p.noWait, ctx.signal);
  });

  app.rpc.handle(conversationsList, (p) => ({ conversations: svc.list({ archived: p.all }).map((r) => svc.info(r)) }));
  app.rpc.handle(conversationsShow, (p) => svc.info(svc.resolve(p.conv)));

  app.rpc.handle(conversationsLog, (p) => {
    const row = svc.resolve(p.conv);
    const live = svc.facts(row.id).alive || (row.endedAt === null && row.spawnError === null);
    if (p.afterSeq !== undefined) {
      const rows = svc.transcript.after(row.id, p.afterSeq);
      const context = svc.transcript.toolRows(row.id, continuedToolCalls(rows), p.afterSeq);
      return {
        text: renderTranscript(rows, false, context).text,
        lastSeq: rows.length ? rows[rows.length - 1].seq : p.afterSeq,
        live,
      };
    }
    const lines = svc.outputLines(row.id, p.lines ?? 50);
    return { text: lines.length ? lines.join('\n') + '\n' : '', lastSeq: svc.transcript.lastSeq(row.id), live };
  });

  app.rpc.handle(conversationsStop, async (p) => {
    const row = svc.resolve(p.conv);
    const { stopped } = await svc.stop(row.id, { timeoutMs: p.timeoutMs, kill: p.kill });
    return { stopped, conversation: svc.info(svc.get(row.id)!) };
  });

  app.rpc.handle(conversationsArchive, (p) => {
    const row = svc.resolve(p.conv);
    svc.archive(row.id);
    return svc.info(svc.get(row.id)!);
  });

  app.rpc.handle(conversationsUnarchive, (p) => {
    const row = svc.resolve(p.conv);
    svc.unarchive(row.id);
    return svc.info(svc.get(row.id)!);
  });

  app.rpc.handle(conversationsResume, async (p, ctx) => {
    const row = svc.resolve(p.conv);
    svc.resume(row.id);
    return wait(row.id, p.noWait, ctx.signal);
  });

  app.rpc.handle(conversationsAnswer, (p) => {
    const row = svc.resolve(p.conv);
    const answered = svc.answer(row.id, { allow: p.allow, deny: p.deny, option: p.option, text: p.text });
    return { answered, conversation: svc.info(svc.get(row.id)!) };
  });

  app.rpc.handle(conversationsTell, (p) => {
    const row = svc.resolve(p.conv);
    const r = svc.tell(row.id, p.text, { force: p.force });
    return { ...r, conversation: svc.info(svc.get(row.id)!) };
  });

  app.rpc.handle(conversationsStatus, (p) => {
    const now = app.now();
    return {
      agents: svc.list({ archived: p.all }).map((r) => {
        const i = svc.info(r, now);
        return {
          id: i.id,
          name: i.name,
          title: i.title,
          kind: i.kind,
          parentId: i.parentId,
          harness: i.harness,
          model: i.model,
          effort: i.effort,
          alive: i.alive,
          activity: i.activity,
          archived: i.archived,
          cost: i.cost,
        };
      }),
    };
  });

  app.rpc.handle(conversationsHandoff, async (p, ctx) =>
    wait(createSuccessor(svc, 'handoff', p).id, p.noWait, ctx.signal),
  );
  app.rpc.handle(conversationsFork, async (p, ctx) => wait(createSuccessor(svc, 'fork', p).id, p.noWait, ctx.signal));

  app.http.route('GET', '/api/agents/:name/output', (req) => {
    const raw = req.query.get('lines');
    const n = raw === null ? 100 : Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 100_000) throw badLinesError(raw);
    const row = svc.resolve(req.params.name);
    const lines = svc.outputLines(row.id, n);
    return { status: 200, body: { id: row.id, name: row.name, activity: svc.activity(row), lines } };
  });

  return svc;
}

/** A title from the prompt: its first line outside fenced blocks. */
function firstLine(text: string): string {
  const prose = text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  const line = prose.split('\n').find((l) => l.trim() !== '') ?? 'conversation';
  return line.trim().slice(0, 80);
}
