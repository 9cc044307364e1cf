// svc skill install|show — the svc-gauntlet-loop skill for Claude Code, Codex and Gemini CLI.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { projectsList } from '../../shared/protocol/projects';
import {
  bundledSkillPath,
  describeInstall,
  installSkill,
  SKILL_HARNESSES,
  skillsFolder,
} from '../../shared/skills/installSkill';
import type { SkillHarness } from '../../shared/skills/installSkill';
import { bool, str, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { connect } from '../client';
import { unknownProjectRefusal } from '../shimRefusals';

const skillText = () => fs.readFileSync(bundledSkillPath(__dirname), 'utf8');

export const skillCommands: CommandSpec[] = [
  {
    path: ['skill', 'install'],
    summary: 'install the svc-gauntlet-loop skill where Claude Code, Codex or Gemini CLI find skills',
    usage: ['[--harness claude|codex|gemini|all] [--project <key>] [--force]'],
    flags: {
      harness: { type: 'string', help: 'which harness (default all)', value: '<h>' },
      project: { type: 'string', help: "install into this project's checkout instead of your home", value: '<key>' },
      force: { type: 'boolean', help: 'replace a copy you edited' },
    },
    details:
      'Folders: claude ~/.claude/skills, codex ~/.agents/skills, gemini ~/.gemini/skills (or .claude/skills, .agents/skills, .gemini/skills in the project).\nInstalling again is a no-op; a copy you edited is kept and reported unless --force.',
    async run(a, io) {
      const which = str(a, 'harness') ?? 'all';
      if (which !== 'all' && !(SKILL_HARNESSES as readonly string[]).includes(which))
        throw new UsageError(`--harness must be claude, codex, gemini or all, got '${which}'`);
      const harnesses: SkillHarness[] = which === 'all' ? [...SKILL_HARNESSES] : [which as SkillHarness];
      let base: { home: string } | { project: string } = { home: io.env.HOME || os.homedir() };
      const projectKey = str(a, 'project');
      if (projectKey) {
        const client = await connect(io.env);
        const { projects } = await client.request(projectsList, {});
        client.close();
        const p = projects.find((x) => x.key === projectKey);
        if (!p) throw unknownProjectRefusal(projectKey);
        base = { project: p.path };
      }
      const text = skillText();
      for (const h of harnesses)
        io.out(describeInstall(installSkill(text, h, skillsFolder(h, base), bool(a, 'force'))) + '\n');
      return 0;
    },
  },
  {
    path: ['skill', 'show'],
    summary: 'print the svc-gauntlet-loop skill (SKILL.md)',
    usage: ['[--path]'],
    flags: { path: { type: 'boolean', help: 'print where the bundled SKILL.md is instead' } },
    async run(a, io) {
      io.out(bool(a, 'path') ? path.resolve(bundledSkillPath(__dirname)) + '\n' : skillText());
      return 0;
    },
  },
];
