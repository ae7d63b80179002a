// `/projects/{p}/documents`: the documents, their saved revision, and a way to open one.
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { useDocuments } from '../api/queries';
import { historyHref } from '../history/links';
import { useConcepts } from '../screen';
import { shortTime } from '../ui/time';
import { Failure } from './Failure';

export function DocumentsPage({ params }: { params: { project: string } }) {
  useConcepts('Document', 'Revision');
  const documents = useDocuments(params.project);
  const [, navigate] = useLocation();
  const [path, setPath] = useState('');
  const base = `/projects/${encodeURIComponent(params.project)}/documents`;

  function open(event: FormEvent) {
    event.preventDefault();
    if (path.trim()) navigate(`${base}/${path.trim()}`);
  }

  return (
    <section aria-labelledby="title">
      <h1 id="title">Documents</h1>
      {documents.error && <Failure error={documents.error} />}
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Revision</th>
            <th scope="col">Changed</th>
            <th scope="col">
              <span className="visually-hidden">History</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {documents.data?.map((d) => (
            <tr key={d.path}>
              <td>
                <Link href={`${base}/${d.path}`}>{d.path}</Link>
              </td>
              <td>r{d.revision}</td>
              <td>{shortTime(d.updated_at)}</td>
              <td>
                <Link href={historyHref(params.project, d.path)} aria-label={`History of ${d.path}`}>
                  History
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="inline" onSubmit={open}>
        <span className="field">
          <label htmlFor="new-path">New document</label>
          <input id="new-path" placeholder="worker.yaml" value={path} onChange={(e) => setPath(e.target.value)} />
        </span>
        <button type="submit">Open</button>
      </form>
    </section>
  );
}
