// The new lane's role, among those its launcher may start.
import { defaultRole, rolesFor } from './flowDefaults';
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';
import type { Role } from './flowTypes';

const ROLE_HELP: Record<Role, string> = {
  builder: 'works on a branch of its own',
  critic: 'judges a builder iteration (from a root only)',
  verifier: 'checks, detached at a commit',
  play: 'an empty directory, no svc context',
  orchestrator: 'runs a loop of its own lanes',
};

export function roleStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => true,
    async ask(back) {
      const roles = rolesFor(s.launcher());
      const items = roles.map((r) => ({ label: r, description: ROLE_HELP[r], role: r }));
      const want = a.role && roles.includes(a.role) ? a.role : defaultRole(s.facts.selected);
      const got = answered(
        await p.pick(items, {
          title: s.title(),
          placeholder: `Role of the new lane (launched by #${a.launcher})`,
          active: items.find((i) => i.role === want),
          back,
        }),
      );
      a.role = got.role;
    },
  };
}
