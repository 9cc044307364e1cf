// The model, resolved for the role now (docs/spec.md: Launch rule 6: no default model): the
// project's setting for the role, else what the harness offers, a typed one, or Open Roles.
// Also offered: the model of the newest lane of this role in the run, and the last answer.
import { answered } from './flowRunner';
import type { Step } from './flowRunner';
import type { FlowState } from './flowState';
import { BACK } from './flowTypes';
import type { PickItem } from './flowTypes';

const ANOTHER_MODEL = 'Another model…';
const OPEN_ROLES = 'Open Roles…';

type ModelItem = PickItem & { model?: string; other?: boolean; roles?: boolean };

export function modelStep(s: FlowState): Step {
  const { a, p } = s;
  return {
    shown: () => true,
    async ask(back) {
      const who = await s.once(`launcher:${a.launcher}`, () => s.facts.launcher(a.launcher!));
      const set = who.project
        ? await s.once(`role:${who.project}:${a.role}`, () => s.facts.roleSettings(who.project!, a.role!))
        : { model: null, harness: null };
      let items: ModelItem[];
      let placeholder: string;
      if (set.model) {
        items = [
          {
            label: set.model,
            description: `the model set for ${a.role}s of project ${who.project}`,
            model: set.model,
          },
        ];
        placeholder = `Model for the ${a.role}`;
      } else {
        const harness = a.harness || set.harness || who.harness;
        const offered = await s.once(`models:${harness}`, () => s.facts.models(harness));
        items = offered.models.map((m) => ({ label: m, description: `offered by ${harness}`, model: m }));
        items.push({
          label: OPEN_ROLES,
          description: `set a model for ${a.role}s${who.project ? ` of project ${who.project}` : ''}; your answers here are kept`,
          roles: true,
        });
        placeholder = `No model is set for ${a.role}s${who.project ? ` of project ${who.project}` : ''}: pick one ${harness} offers, type one, or set one in Roles${offered.note ? ` (${offered.note})` : ''}`;
      }
      const sameRole = s.facts.rows
        .filter((r) => r.role === a.role && r.run === a.run && r.model)
        .sort((x, y) => y.id - x.id)[0];
      if (sameRole?.model && !items.some((i) => i.model === sameRole.model))
        items.splice(set.model ? 1 : 0, 0, {
          label: sameRole.model,
          description: `the model of #${sameRole.id}, a ${a.role} of run ${a.run}`,
          model: sameRole.model,
        });
      if (a.model && !items.some((i) => i.model === a.model))
        items.unshift({ label: a.model, description: 'your last answer', model: a.model });
      const last = a.model ?? set.model ?? sameRole?.model;
      const rolesAt = items.findIndex((i) => i.roles);
      items.splice(rolesAt >= 0 ? rolesAt : items.length, 0, {
        label: ANOTHER_MODEL,
        description: 'type a model id',
        other: true,
      });
      for (;;) {
        const got = answered(
          await p.pick(items, {
            title: s.title(),
            placeholder,
            active: items.find((i) => i.model === last) ?? items.find((i) => i.model),
            back,
          }),
        );
        if (got.roles) return { kind: 'openRoles', answers: a, project: who.project, role: a.role! };
        if (!got.other) {
          a.model = got.model;
          return;
        }
        // A typed model; Back returns to the list.
        const v = await p.input({
          title: s.title(),
          prompt: `Model for the ${a.role}`,
          value: a.model ?? '',
          validate: (m) => (m.trim() ? undefined : 'a model is required: there is no default model'),
          back: true,
        });
        if (v === BACK) continue;
        a.model = answered(v).trim();
        return;
      }
    },
  };
}
