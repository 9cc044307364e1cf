// Project registry methods. Senders: the shim (`svc project …`) and the extension.
import { z } from 'zod';
import { Gauntlet, ProjectKey } from '../config';
import { request } from './rpc';

export const ProjectInfo = z.object({
  key: z.string(),
  path: z.string(),
  defaultBranch: z.string(),
  codeHost: z.enum(['local', 'github']),
  gauntlet: Gauntlet.optional(),
});
export type ProjectInfo = z.infer<typeof ProjectInfo>;

/** Client → daemon. Adds a project to projects.yaml (comments in the file are kept). */
export const projectsAdd = request(
  'projects/add',
  z
    .object({
      key: ProjectKey,
      path: z.string().min(1).max(4096),
      defaultBranch: z.string().min(1).max(255).optional(),
    })
    .strict(),
  ProjectInfo,
);

/** Client → daemon. Lists the projects of projects.yaml. */
export const projectsList = request(
  'projects/list',
  z.object({}).strict(),
  z.object({ projects: z.array(ProjectInfo) }),
);
