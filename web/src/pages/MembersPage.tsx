// `/projects/{p}/members`: who is in the project; admins change roles.
import { useQuery } from '@tanstack/react-query';
import { runTool } from '../api/client';
import type { Member, Role } from '../api/types';
import { useConcepts } from '../screen';
import { usePermission } from '../ui/permission';
import { useAction } from '../ui/useAction';
import { Failure } from './Failure';

const ROLES: Role[] = ['viewer', 'developer', 'operator', 'admin'];

export function MembersPage({ params }: { params: { project: string } }) {
  useConcepts('Role', 'Project');
  const { project } = params;
  const members = useQuery({
    queryKey: ['members', project],
    queryFn: () => runTool<{ members: Member[] }>('list_members', { project }).then((r) => r.members),
  });
  const mayManage = usePermission(project, undefined, 'set_member_role');
  const action = useAction();
  return (
    <section aria-labelledby="title">
      <h1 id="title">Members</h1>
      {!mayManage.allowed && mayManage.reason && <p className="muted">Only admins change roles: {mayManage.reason}.</p>}
      {members.error && <Failure error={members.error} />}
      {action.error && <Failure error={action.error} />}
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
                  disabled={!mayManage.allowed || action.busy}
                  title={mayManage.reason || undefined}
                  onChange={(e) =>
                    void action.run(
                      () => runTool('set_member_role', { project, operator: m.operator, role: e.target.value }),
                      ['members', 'project', 'projects', 'tools'],
                    )
                  }
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
    </section>
  );
}
