// Installs the svc-gauntlet-loop skill where each harness looks for Agent Skills. Used by
// `svc skill install` and the extension's palette command. A copy the user edited is kept
// (unless forced): svc records the hash of what it installed beside the file.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SKILL_NAME = 'svc-gauntlet-loop';
export const SKILL_HARNESSES = ['claude', 'codex', 'gemini'] as const;
export type SkillHarness = (typeof SKILL_HARNESSES)[number];

/** The skills folder of each harness: for the user (home) or inside a project checkout. */
export function skillsFolder(harness: SkillHarness, base: { home: string } | { project: string }): string {
  const user = 'home' in base;
  const root = user ? base.home : base.project;
  switch (harness) {
    case 'claude':
      return path.join(root, '.claude', 'skills'); // Claude Code: ~/.claude/skills, <project>/.claude/skills
    case 'codex':
      return path.join(root, '.agents', 'skills'); // Codex: $HOME/.agents/skills, <repo>/.agents/skills
    case 'gemini':
      return path.join(root, '.gemini', 'skills'); // Gemini CLI: ~/.gemini/skills, <project>/.gemini/skills
  }
}

export type InstallOutcome = 'installed' | 'updated' | 'unchanged' | 'kept' | 'overwritten';

export interface InstallResult {
  harness: SkillHarness;
  path: string;
  outcome: InstallOutcome;
}

// node:crypto loaded on use: the shim bundles this module, and every other command would pay for it.
const sha = (text: string) => process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
const MARKER = '.svc-installed';

export function installSkill(skillText: string, harness: SkillHarness, folder: string, force: boolean): InstallResult {
  const dir = path.join(folder, SKILL_NAME);
  const file = path.join(dir, 'SKILL.md');
  const marker = path.join(dir, MARKER);
  const want = sha(skillText);
  const write = (outcome: InstallOutcome): InstallResult => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, skillText);
    fs.writeFileSync(marker, want + '\n');
    return { harness, path: file, outcome };
  };
  if (!fs.existsSync(file)) return write('installed');
  const have = sha(fs.readFileSync(file, 'utf8'));
  if (have === want) return { harness, path: file, outcome: 'unchanged' };
  const ours = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').trim() : undefined;
  if (ours === have) return write('updated'); // an older svc copy, never edited: safe to replace
  if (force) return write('overwritten');
  return { harness, path: file, outcome: 'kept' };
}

export function describeInstall(r: InstallResult): string {
  switch (r.outcome) {
    case 'installed':
      return `installed ${r.path}`;
    case 'updated':
      return `updated ${r.path}`;
    case 'unchanged':
      return `up to date ${r.path}`;
    case 'overwritten':
      return `overwrote your edited copy ${r.path} (--force)`;
    case 'kept':
      return `kept ${r.path}: you edited it; svc skill install --force replaces it`;
  }
}

/** The skill shipped with svc: `shared/skills/svc-gauntlet-loop/SKILL.md` beside dist/. */
export function bundledSkillPath(distDir: string): string {
  return path.join(distDir, '..', 'shared', 'skills', SKILL_NAME, 'SKILL.md');
}
