// The GitHub fake's permission endpoint (asked only by someone with push access; maintain
// answered as write and triage as read, the role in role_name) and branch refs.
import { err } from './githubFakeReplies';
import type { Ask, Reply } from './githubFakeReplies';
import { PUSH_ROLES } from './githubFakeState';
import type { FakeState } from './githubFakeState';

export function accessRoutes(s: FakeState, { method, rest, login }: Ask): Reply | undefined {
  let r: RegExpExecArray | null;
  if ((r = /^\/collaborators\/([^/]+)\/permission$/.exec(rest)) && method === 'GET') {
    // Only someone with push access may ask.
    if (!PUSH_ROLES.has(s.people.get(login)?.permission ?? 'none'))
      return err(403, 'Must have push access to view collaborator permission.');
    const who = decodeURIComponent(r[1]);
    const role = s.people.get(who)?.permission ?? 'none';
    // The endpoint's `permission` knows only admin, write, read and none; the role is in role_name.
    const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
    return {
      status: 200,
      body: {
        permission,
        role_name: role,
        user: {
          ...s.shapes().user(who),
          role_name: role,
          permissions: {
            admin: role === 'admin',
            maintain: role === 'admin' || role === 'maintain',
            push: PUSH_ROLES.has(role),
            triage: role !== 'none' && role !== 'read',
            pull: role !== 'none',
          },
        },
      },
    };
  }
  if ((r = /^\/git\/ref\/(.+)$/.exec(rest)) && method === 'GET') {
    const ref = decodeURIComponent(r[1]);
    const sha = ref.startsWith('heads/') ? s.branchSha(ref.slice('heads/'.length)) : null;
    return sha ? { status: 200, body: s.shapes().gitRef(`refs/${ref}`, sha) } : err(404, 'Not Found');
  }
  return undefined;
}
