// `svc handoff` and `svc fork`: successor conversations. The successor records its
// source as parent (so it nests under it, beside the source's lanes, showing
// `continues ← #<id>`), runs in the same directory, and is never a lane. Handoff starts
// from a note; fork from a copy of the source's recent output.
import { noSourceError } from './conversationRefusals';
import type { ConversationRow, ConversationService } from './conversationService';

export interface SuccessorParams {
  conv?: string;
  caller?: string;
  harness?: string;
  model?: string;
  effort?: 'low' | 'medium' | 'high';
  title?: string;
  prompt?: string;
}

export function createSuccessor(
  svc: ConversationService,
  mode: 'handoff' | 'fork',
  p: SuccessorParams,
): ConversationRow {
  const ref = p.conv ?? p.caller;
  if (!ref) throw noSourceError(mode);
  const source = svc.resolve(ref);
  const base = source.name.replace(/-[hf]\d+$/, '');
  const letter = mode === 'handoff' ? 'h' : 'f';
  let n = 1;
  while (svc.store.nameTaken(`${base}-${letter}${n}`)) n++;
  const head =
    mode === 'handoff'
      ? `This conversation continues #${source.id} (${source.name}) by handoff. Its transcript: svc conv log #${source.id} --lines 1000`
      : `This conversation is a fork of #${source.id} (${source.name}). Its recent output:\n\n\`\`\`text\n${svc.outputLines(source.id, 200).join('\n')}\n\`\`\``;
  const body = p.prompt ?? (mode === 'handoff' ? 'Continue its work from where it stopped.' : 'Continue from there.');
  return svc.create({
    kind: 'successor',
    name: `${base}-${letter}${n}`,
    title: p.title ?? `${source.title} (${mode} ${n})`,
    project: source.project,
    cwd: source.cwd,
    harness: p.harness ?? source.harness,
    model: p.model ?? source.model,
    effort: p.effort ?? source.effort,
    parentId: source.id,
    issueId: source.issueId,
    bare: source.bare,
    prompt: `${head}\n\n${body}`,
  });
}
