// `/projects/{p}`: the environments (protected marked), what is live where, your role.
import { Link } from 'wouter';
import { useDocuments, useProject } from '../api/queries';
import { useConcepts } from '../screen';
import { Failure } from './Failure';

export function ProjectPage({ params }: { params: { project: string } }) {
  useConcepts('Project', 'Environment', 'Protected environment', 'Deployment');
  const slug = params.project;
  const project = useProject(slug);
  const documents = useDocuments(slug);
  const base = `/projects/${encodeURIComponent(slug)}`;
  if (project.error) return <Failure error={project.error} />;
  const environments = project.data?.environments ?? [];
  return (
    <section aria-labelledby="title">
      <h1 id="title">
        {project.data?.name ?? slug} <span className="muted">· your role is {project.data?.role ?? '…'}</span>
      </h1>
      <h2>What is live where</h2>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Document</th>
            <th scope="col">Saved</th>
            {environments.map((e) => (
              <th scope="col" key={e.name}>
                <Link href={`${base}/environments/${encodeURIComponent(e.name)}`}>{e.name}</Link>
                {e.protected && <span className="chip protected">protected</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {documents.data?.map((d) => (
            <tr key={d.path}>
              <td>
                <Link href={`${base}/documents/${d.path}`}>{d.path}</Link>
              </td>
              <td>r{d.revision}</td>
              {environments.map((e) => {
                const live = d.live[e.name];
                return (
                  <td key={e.name} className={live !== undefined && live !== d.revision ? 'drift' : undefined}>
                    {live === undefined ? <span className="muted">not live</span> : `r${live}`}
                    {live !== undefined && live !== d.revision && <span className="muted"> (behind r{d.revision})</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {documents.error && <Failure error={documents.error} />}
    </section>
  );
}
