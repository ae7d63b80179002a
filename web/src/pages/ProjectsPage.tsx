// `/`: the operator's projects, with their role and environments.
import { Link } from 'wouter';
import { useProjects } from '../api/queries';
import { useConcepts } from '../screen';
import { Failure } from './Failure';

export function ProjectsPage() {
  useConcepts('Project', 'Role');
  const projects = useProjects();
  return (
    <section aria-labelledby="title">
      <h1 id="title">Projects</h1>
      {projects.error && <Failure error={projects.error} />}
      {projects.data?.length === 0 && <p className="muted">You are not a member of any project yet; an admin can add you.</p>}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col">Your role</th>
            <th scope="col">Environments</th>
          </tr>
        </thead>
        <tbody>
          {projects.data?.map((p) => (
            <tr key={p.slug}>
              <td>
                <Link href={`/projects/${encodeURIComponent(p.slug)}`}>{p.name}</Link> <span className="muted">{p.slug}</span>
              </td>
              <td>
                <span className="chip role">{p.role}</span>
              </td>
              <td>
                {p.environments.map((e) => (
                  <span key={e.name} className={e.protected ? 'chip protected' : 'chip'}>
                    {e.name}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
