// `/projects/{p}/members`: who is in the project; admins change roles, each
// change asked first in words (a select changes on one arrow key, so picking
// a role alone never acts).
import { useState } from 'react';
import { runTool } from '../api/client';
import { useMembers } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { ROLES, type Role } from '../../../src/wire/role';
import { useConcepts } from '../screen';
import { usePermission } from '../ui/permission';
import { Dialog } from '../ui/Dialog';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';

export function MembersPage({ params }: { params: { project: string } }) {
  useConcepts('Role', 'Project');
  const { project } = params;
  const members = useMembers(project);
  const mayManage = usePermission(project, undefined, 'set_member_role');
  const setRole = useAction({
    mutationFn: ({ operator, role }: { operator: string; role: Role }) => runTool('set_member_role', { project, operator, role }),
    changes: [queryKeys.members(), queryKeys.project(), queryKeys.projects(), queryKeys.tools()],
  });
  /** The role change picked, waiting for the operator's yes. */
  const [asked, setAsked] = useState<{ operator: string; role: Role } | null>(null);
  const article = (role: string) => (/^[aeiou]/.test(role) ? 'an' : 'a');
  return (
    <section aria-labelledby="title">
      <h1 id="title">Members</h1>
      {!mayManage.allowed && mayManage.reason && <p className="muted">Only admins change roles: {mayManage.reason}.</p>}
      {members.error && <Failure error={members.error} />}
      {setRole.error && <Failure error={setRole.error} />}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Operator</th>
            <th scope="col">Role</th>
          </tr>
        </thead>
        <tbody>
          {members.data?.map((m) => (
            <tr key={m.operator}>
              <td>{m.operator}</td>
              <td>
                <select
                  aria-label={`Role of ${m.operator}`}
                  value={m.role}
                  disabled={!mayManage.allowed || setRole.isPending}
                  title={mayManage.reason || undefined}
                  onChange={(e) => {
                    // The options are ROLES: the one picked is always found.
                    const role = ROLES.find((r) => r === e.target.value);
                    if (role) setAsked({ operator: m.operator, role });
                  }}
                >
                  {ROLES.map((role) => (
                    <option key={role}>{role}</option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Dialog title={asked ? `Make ${asked.operator} ${article(asked.role)} ${asked.role} of ${project}?` : ''} open={asked !== null} onClose={() => setAsked(null)}>
        <div className="dialog-actions">
          <button type="button" autoFocus onClick={() => setAsked(null)}>
            Keep
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => {
              if (asked) setRole.mutate(asked);
              setAsked(null);
            }}
          >
            Change role
          </button>
        </div>
      </Dialog>
    </section>
  );
}
