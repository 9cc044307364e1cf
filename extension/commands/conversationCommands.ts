// Conversation commands: open (the Conversation panel), new, tell, answer, stop, archive,
// handoff and fork. Each asks the daemon the way the shim does (`svc conv new`, `svc
// tell`, `svc conv answer`, `svc conv stop`, `svc handoff`, `svc fork`); refusals come
// back through the error funnel with the daemon's message.
import * as vscode from 'vscode';
import { isLive } from '../../shared/activity';
import {
  conversationsAnswer,
  conversationsArchive,
  conversationsFork,
  conversationsHandoff,
  conversationsNew,
  conversationsResume,
  conversationsShow,
  conversationsUnarchive,
  conversationsStop,
  conversationsTell,
} from '../../shared/protocol/conversations';
import type { Created } from '../../shared/protocol/conversations';
import { projectsList } from '../../shared/protocol/projects';
import { canSucceed } from '../commandDeck/deckModel';
import { DaemonRefusal } from '../../shared/client/daemonRefusal';
import { pickerHarnesses } from '../doctor/harnessHealth';
import { NothingToDo, UserCancelled } from '../errors/errorFunnel';
import type { CommandDeps } from './commandDeps';
import { ask, conversationTarget } from './targets';

const selection = (d: CommandDeps) => d.deckView.selection;

/** Opens a conversation to keep (the palette, a context menu, a double-click): not a preview. */
export async function openConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'open',
    none: 'there are no conversations yet',
  });
  d.panels.show(t.id);
}

/** The last row click, to tell a double-click (keep the tab) from two clicks. */
let lastPreview: { id: number; at: number } | undefined;
/** A tree row runs its command once per click and again on the double-click's second one. */
export const DOUBLE_CLICK_MS = 600;

/**
 * A row's click (tree rows, the Agents page, the Awareness rail): opens the conversation
 * in the preview tab, as the Explorer opens a file; the same row again within a
 * double-click's time keeps the tab.
 */
export async function previewConversation(d: CommandDeps, conv: number | undefined, now = Date.now()): Promise<void> {
  await d.connection.usable();
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'open',
    none: 'there are no conversations yet',
  });
  const again = lastPreview && lastPreview.id === t.id && now - lastPreview.at < DOUBLE_CLICK_MS;
  lastPreview = again ? undefined : { id: t.id, at: now };
  d.panels.show(t.id, { preview: !again });
}

export async function newConversation(d: CommandDeps): Promise<void> {
  const { projects } = await d.connection.request(projectsList, {});
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const where = [
    ...projects.map((p) => ({
      label: p.key,
      description: p.path,
      project: p.key,
      cwd: undefined as string | undefined,
    })),
    ...(folder?.scheme === 'file' || folder?.scheme === 'vscode-remote'
      ? [{ label: 'No project', description: `in ${folder.fsPath}`, project: undefined, cwd: folder.fsPath }]
      : []),
  ];
  if (!where.length)
    throw new NothingToDo('open a folder first: a conversation needs a working directory (or a project of svc)', {
      button: 'Open Folder…',
      command: 'workbench.action.files.openFolder',
    });
  const place =
    where.length === 1
      ? where[0]
      : await vscode.window.showQuickPick(where, {
          title: 'svc: New Conversation (1/4)',
          placeHolder: 'Where does the agent work?',
        });
  if (!place) throw new UserCancelled();
  // Marked by the doctor: a harness that is not installed says so (and svc: Doctor has the fix).
  const harnesses = await pickerHarnesses(d.connection);
  const harness = harnesses.length
    ? ((
        await vscode.window.showQuickPick(harnesses, {
          title: 'svc: New Conversation (2/4)',
          placeHolder: 'Harness (the agent program)',
        })
      )?.harness ?? '')
    : await ask({ title: 'svc: New Conversation (2/4)', prompt: 'Harness (a profile of config.yaml, e.g. claude)' });
  if (!harness) throw new UserCancelled();
  const model = await ask({
    title: 'svc: New Conversation (3/4)',
    prompt: `Model for ${harness}`,
    validateInput: (v) => (v.trim() ? undefined : 'a model is required'),
  });
  const prompt = await ask({
    title: 'svc: New Conversation (4/4)',
    prompt: 'First message to the agent',
    validateInput: (v) => (v.trim() ? undefined : 'the message is empty'),
  });
  const created = await d.connection.request(conversationsNew, {
    harness,
    model: model.trim(),
    prompt,
    noWait: true,
    ...(place.project ? { project: place.project } : { cwd: place.cwd }),
  });
  d.panels.show(created.conversation.id);
}

export async function tellConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'tell',
    filter: (r) => isLive(r.activity),
    none: 'no conversation is running to tell',
  });
  const text = await ask({
    title: `svc: Tell #${t.id}`,
    prompt: `Message to #${t.id}${t.row ? ` ${t.row.name}` : ''} (queued while it works)`,
    validateInput: (v) => (v.trim() ? undefined : 'the message is empty'),
  });
  const send = (force: boolean) =>
    d.connection.request(conversationsTell, { conv: String(t.id), text, ...(force ? { force } : {}) });
  let r;
  try {
    r = await send(false);
  } catch (e) {
    // A critic or verifier that filed its done report refuses messages unless forced (docs/spec.md: Authentication 3).
    if (!DaemonRefusal.is(e, 'judgeReported')) throw e;
    const choice = await vscode.window.showWarningMessage(e.message, { modal: true }, 'Send Anyway');
    if (choice !== 'Send Anyway') throw new UserCancelled();
    r = await send(true);
  }
  void vscode.window.showInformationMessage(
    r.delivered === 'now'
      ? `svc: told #${t.id}.`
      : `svc: queued for #${t.id}: delivered when its turn ends (${r.ahead} ahead).`,
  );
}

export async function answerConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'answer',
    filter: (r) => r.activity === 'needs-you',
    none: 'no conversation needs you',
  });
  const info = await d.connection.request(conversationsShow, { conv: String(t.id) });
  if (!info.ask) throw new NothingToDo(`#${t.id} has no open request to answer`);
  const title = `svc: Answer #${t.id}: ${info.ask.title}`;
  type Item = {
    label: string;
    description?: string;
    answer: { option?: string; allow?: boolean; deny?: boolean; text?: string } | 'text';
  };
  const items: Item[] = info.ask.options.map((o) => ({ label: o.name, description: o.kind, answer: { option: o.id } }));
  if (info.ask.kind === 'question') items.unshift({ label: 'Type an answer…', answer: 'text' });
  else if (!items.length)
    items.push({ label: 'Allow', answer: { allow: true } }, { label: 'Deny', answer: { deny: true } });
  const picked =
    items.length === 1 && items[0].answer === 'text'
      ? items[0]
      : await vscode.window.showQuickPick(items, { title, placeHolder: info.ask.title });
  if (!picked) throw new UserCancelled();
  const answer =
    picked.answer === 'text'
      ? { text: await ask({ title, prompt: info.ask.fields[0] ?? info.ask.title }) }
      : picked.answer;
  const r = await d.connection.request(conversationsAnswer, { conv: String(t.id), ...answer });
  void vscode.window.showInformationMessage(`svc: answered #${t.id}: ${r.answered.title}`);
}

export async function stopConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'stop',
    filter: (r) => isLive(r.activity),
    none: 'no conversation is running',
  });
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `svc: stopping #${t.id}…` },
    () => d.connection.request(conversationsStop, { conv: String(t.id) }),
  );
  if (r.stopped) void vscode.window.showInformationMessage(`svc: stopped #${t.id} (${r.conversation.name}).`);
  else
    void vscode.window.showWarningMessage(
      `svc: #${t.id} (${r.conversation.name}) did not stop in time; it is ${r.conversation.activity}.`,
    );
}

export async function archiveConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'archive',
    filter: (r) => !isLive(r.activity),
    none: 'no stopped conversation to archive',
  });
  const r = await d.connection.request(conversationsArchive, { conv: String(t.id) });
  const undo = await vscode.window.showInformationMessage(
    `svc: archived #${r.id} (${r.name}); it left the Command Deck ("Show Archived" lists it).`,
    'Unarchive',
  );
  if (undo === 'Unarchive') await unarchiveConversation(d, r.id);
}

/** `svc conv resume`: restarts a stopped conversation's agent (its session is loaded when the harness can). */
export async function resumeConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: 'resume',
    filter: (r) => !isLive(r.activity),
    none: 'no stopped conversation to resume',
  });
  const r: Created = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `svc: resuming #${t.id}…` },
    () => d.connection.request(conversationsResume, { conv: String(t.id), noWait: true }),
  );
  void vscode.window.showInformationMessage(
    `svc: resumed #${r.conversation.id} (${r.conversation.name}); it is ${r.conversation.activity}.`,
  );
}

/** `svc conv unarchive`: brings an archived conversation back to the Command Deck. */
export async function unarchiveConversation(d: CommandDeps, conv: number | undefined): Promise<void> {
  const id = conv;
  let target = id;
  if (target === undefined) {
    const archived = d.deck.allRows.filter((r) => r.archived);
    if (!archived.length) throw new NothingToDo('no conversation is archived');
    const picked = await vscode.window.showQuickPick(
      archived
        .map((r) => ({ label: r.title || r.name, description: `#${r.id} · ${r.name}`, id: r.id }))
        .sort((a, b) => b.id - a.id),
      {
        title: 'svc: Unarchive Conversation',
        placeHolder: 'Which conversation to bring back to the Command Deck?',
        matchOnDescription: true,
      },
    );
    if (!picked) throw new UserCancelled();
    target = picked.id;
  }
  const r = await d.connection.request(conversationsUnarchive, { conv: String(target) });
  void vscode.window.showInformationMessage(`svc: unarchived #${r.id} (${r.name}); it is back in the Command Deck.`);
}

/** `svc handoff` / `svc fork`: a successor nested under its source. */
export async function successor(d: CommandDeps, conv: number | undefined, how: 'handoff' | 'fork'): Promise<void> {
  const t = await conversationTarget(conv, d.deck, selection(d), {
    what: how === 'handoff' ? 'hand off' : 'fork',
    filter: canSucceed,
    none: 'no conversation to continue',
  });
  const note = await ask({
    title: `svc: ${how === 'handoff' ? 'Hand Off' : 'Fork'} #${t.id}`,
    prompt:
      how === 'handoff'
        ? 'Handoff note for the successor (empty: the default note)'
        : 'First message to the fork (empty: none)',
  });
  const def = how === 'handoff' ? conversationsHandoff : conversationsFork;
  const created: Created = await d.connection.request(def, {
    conv: String(t.id),
    noWait: true,
    ...(note.trim() ? { prompt: note } : {}),
  });
  d.panels.show(created.conversation.id);
}
