// svc project add|list
import * as path from 'node:path';
import { projectsAdd, projectsList } from '../../shared/protocol/projects';
import { bool, JSON_FLAG, jsonText, str } from '../cli';
import type { CommandSpec } from '../cli';
import { connect } from '../client';

export const projectCommands: CommandSpec[] = [
  {
    path: ['project', 'add'],
    summary: 'register a git checkout as a project in SVC_HOME/projects.yaml',
    usage: ['<key> <path> [--default-branch <b>] [--json]'],
    flags: {
      'default-branch': { type: 'string', help: "the branch lanes start from (default: origin's HEAD)", value: '<b>' },
      ...JSON_FLAG,
    },
    positionals: [
      { name: 'key', required: true },
      { name: 'path', required: true },
    ],
    async run(a, io) {
      const client = await connect(io.env);
      const p = await client.request(projectsAdd, {
        key: a.positionals[0],
        path: path.resolve(io.cwd, a.positionals[1]),
        defaultBranch: str(a, 'default-branch'),
      });
      client.close();
      io.out(bool(a, 'json') ? jsonText(p) : `Project ${p.key}: ${p.path} (default branch ${p.defaultBranch})\n`);
      return 0;
    },
  },
  {
    path: ['project', 'list'],
    summary: 'list the projects of SVC_HOME/projects.yaml',
    usage: ['[--json]'],
    flags: { ...JSON_FLAG },
    async run(a, io) {
      const client = await connect(io.env);
      const { projects } = await client.request(projectsList, {});
      client.close();
      if (bool(a, 'json')) io.out(jsonText(projects));
      else if (projects.length === 0) io.out('no projects (add one with: svc project add <key> <path>)\n');
      else for (const p of projects) io.out(`${p.key}\t${p.path}\t${p.defaultBranch}\t${p.codeHost}\n`);
      return 0;
    },
  },
];
