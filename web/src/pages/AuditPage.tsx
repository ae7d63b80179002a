// `/projects/{p}/audit`: who changed what, newest first; reads behind a
// switch. Each row names its target with a link; the filters (tool, operator,
// outcome, days) run on the server, so "Load more" pages through the
// filtered log, and they live in the address.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import { runTool } from '../api/client';
import { useProject } from '../api/queries';
import { queryKeys } from '../api/queryKeys';
import { AuditFilters } from '../audit/AuditFilters';
import { AuditTarget } from '../audit/AuditTarget';
import { auditInput, filterOf, searchOf } from '../audit/filters';
import { useConcepts } from '../screen';
import { usePermission } from '../ui/permission';
import { TableBox } from '../ui/TableBox';
import { shortTime } from '../ui/time';
import { Failure } from './Failure';
import '../audit/audit.css';

const PAGE = 50;

export function AuditPage({ params }: { params: { project: string } }) {
  useConcepts('Project', 'Role');
  const { project } = params;
  const [search, setSearch] = useSearchParams();
  const filter = filterOf(search);
  const input = auditInput(filter);
  // A viewer is told why at once, instead of an empty table while a refused read is tried again.
  const mayRead = usePermission(project, undefined, 'read_audit');
  const role = useProject(project).data?.role;
  const pages = useInfiniteQuery({
    enabled: mayRead.allowed,
    queryKey: queryKeys.audit(project, input),
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      runTool('read_audit', { project, limit: PAGE, ...input, ...(pageParam ? { before: pageParam } : {}) }, signal).then(
        (r) => r.entries,
      ),
    getNextPageParam: (last) => (last.length === PAGE ? last[last.length - 1]?.id : undefined),
  });
  const rows = pages.data?.pages.flat() ?? [];
  const actions = [...new Set(rows.map((r) => r.tool).filter((tool) => tool.includes(':')))];

  if (mayRead.reason) {
    return (
      <section aria-labelledby="title">
        <h1 id="title">Audit</h1>
        <p className="notice">
          You cannot read the audit of {project}: only its operators and admins can, and your role there is {role ?? 'unknown'}.
        </p>
      </section>
    );
  }
  return (
    <section aria-labelledby="title">
      <h1 id="title">Audit</h1>
      <AuditFilters project={project} filter={filter} seenActions={actions} onChange={(next) => setSearch(searchOf(next), { replace: true })} />
      {pages.error && <Failure error={pages.error} />}
      <TableBox label="Audit entries">
        <table className="grid audit stacks">
          <caption className="visually-hidden">{filter.reads ? 'Changes and reads' : 'Changes'}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Operator</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="when" data-label="When">
                  <time dateTime={r.at} title={new Date(r.at).toLocaleString()}>
                    {shortTime(r.at)}
                  </time>
                </td>
                <td data-label="Operator">
                  {r.operator ?? '—'} <span className="muted small via">via {r.via}</span>
                </td>
                <td data-label="Action">
                  {/* A narrow table may break a tool's name at its underscores, nowhere else. */}
                  <code>{r.tool.split('_').flatMap((part, i) => (i === 0 ? [part] : [<wbr key={i} />, `_${part}`]))}</code>
                </td>
                <td className="target" data-label="Target">
                  <AuditTarget entry={r} project={project} />
                </td>
                <td className={`outcome ${r.outcome}`} data-label="Outcome">
                  {r.outcome}
                  {r.error && <span className="muted small why">{r.error}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableBox>
      {pages.data && rows.length === 0 && (
        <p className="muted">{filter.reads ? 'No entries match these filters.' : 'No changes match these filters; reads are hidden (Show reads).'}</p>
      )}
      {pages.hasNextPage && (
        <button type="button" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          Load more
        </button>
      )}
    </section>
  );
}
