// "svc: Install the 'svc-gauntlet-loop' Skill": the same code as `svc skill install`
// (shared/skills/installSkill.ts), with the skill shipped in the extension. Into the
// person's home (every project) or one project's checkout; a copy they edited is kept
// unless they choose to replace it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { projectsList } from '../../shared/protocol/projects';
import {
  bundledSkillPath,
  describeInstall,
  installSkill,
  SKILL_HARNESSES,
  SKILL_NAME,
  skillsFolder,
} from '../../shared/skills/installSkill';
import type { SkillHarness } from '../../shared/skills/installSkill';
import { DaemonDown } from '../connection/daemonErrors';
import { UserCancelled } from '../errors/errorFunnel';
import { logger } from '../log';
import type { CommandDeps } from './commandDeps';

const log = logger('skill');

export async function installSkillCommand(d: CommandDeps): Promise<void> {
  const text = fs.readFileSync(bundledSkillPath(path.join(d.extensionUri.fsPath, 'dist')), 'utf8');
  const harness = await vscode.window.showQuickPick(
    [
      { label: 'all', description: 'Claude Code, Codex and Gemini CLI' },
      ...SKILL_HARNESSES.map((h) => ({ label: h, description: skillsFolder(h, { home: '~' }) })),
    ],
    { title: `svc: Install the ${SKILL_NAME} Skill (1/2)`, placeHolder: 'For which harness?' },
  );
  if (!harness) throw new UserCancelled();
  // Projects come from the daemon; without it, the home folder is still offered.
  let projects: { key: string; path: string }[] = [];
  try {
    projects = (await d.connection.request(projectsList, {})).projects;
  } catch (e) {
    if (!DaemonDown.is(e)) throw e;
  }
  const home = process.env.HOME || os.homedir();
  const where = await vscode.window.showQuickPick(
    [
      { label: 'Your home', description: `${home}: every project`, base: { home } },
      ...projects.map((p) => ({ label: `Project ${p.key}`, description: p.path, base: { project: p.path } })),
    ],
    { title: `svc: Install the ${SKILL_NAME} Skill (2/2)`, placeHolder: 'Where?' },
  );
  if (!where) throw new UserCancelled();
  const harnesses: SkillHarness[] = harness.label === 'all' ? [...SKILL_HARNESSES] : [harness.label as SkillHarness];
  const results = harnesses.map((h) => installSkill(text, h, skillsFolder(h, where.base), false));
  for (const r of results) log.info(describeInstall(r));
  const kept = results.filter((r) => r.outcome === 'kept');
  const message = `svc: ${results.map(describeInstall).join('; ')}`;
  if (!kept.length) {
    void vscode.window.showInformationMessage(message);
    return;
  }
  const choice = await vscode.window.showWarningMessage(message, 'Replace My Copy');
  if (choice !== 'Replace My Copy') return;
  const forced = kept.map((r) => installSkill(text, r.harness, skillsFolder(r.harness, where.base), true));
  void vscode.window.showInformationMessage(`svc: ${forced.map(describeInstall).join('; ')}`);
}
