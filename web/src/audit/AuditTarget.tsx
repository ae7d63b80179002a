// What an audit entry acted on, read from its recorded input, with a link to
// where it can be seen: a document's revision in its history, an environment
// (its deployments and secrets), the members. A write's new revision is its
// base plus one (a write on any other base is refused). The entry keeps the
// input, not the result, so a deployment is named by its revision and
// environment rather than its number, and a token by its name.
import { Link } from 'wouter';
import type { AuditRecord } from '../../../src/wire/audit';
import { historyHref } from '../history/links';

const text = (input: unknown, key: string): string | undefined => {
  const value = (input as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' ? value : undefined;
};
const whole = (input: unknown, key: string): number | undefined => {
  const value = (input as Record<string, unknown> | null)?.[key];
  return typeof value === 'number' ? value : undefined;
};

export function AuditTarget({ entry, project }: { entry: AuditRecord; project: string }) {
  const { input, environment } = entry;
  const base = `/projects/${encodeURIComponent(project)}`;
  const path = text(input, 'path');
  const envLink = (name: string | null | undefined) =>
    name ? <Link href={`${base}/environments/${encodeURIComponent(name)}`}>{name}</Link> : null;
  const document = (revision?: number) =>
    path ? (
      <Link href={historyHref(project, path, revision === undefined ? {} : { to: revision })}>
        {path}
        {revision !== undefined && ` r${revision}`}
      </Link>
    ) : null;

  switch (entry.tool) {
    case 'write_document': {
      const made = entry.outcome !== 'ok' ? undefined : (whole(input, 'base_revision') ?? 0) + 1;
      return document(made);
    }
    case 'delete_document':
      return path ? <code>{path}</code> : null;
    case 'deploy': {
      const revision = whole(input, 'revision');
      return (
        <>
          {document(revision)}
          {revision === undefined && ' (current)'} → {envLink(environment)}
        </>
      );
    }
    case 'rollback':
      return (
        <>
          {document()} in {envLink(environment)}
        </>
      );
    case 'set_secret':
    case 'delete_secret':
      return (
        <>
          secret <code>{text(input, 'name')}</code> in {envLink(environment)}
        </>
      );
    case 'create_environment':
      return envLink(text(input, 'name'));
    case 'set_member_role':
    case 'remove_member':
      return (
        <>
          member <Link href={`${base}/members`}>{text(input, 'operator')}</Link>
          {text(input, 'role') && ` as ${text(input, 'role')}`}
        </>
      );
    case 'token:create':
      return <>token {text(input, 'name')}</>;
    case 'proposal:reject':
      return <>a proposal to {text(input, 'tool')?.replaceAll('_', ' ')}</>;
    default:
      return path ? (
        <>
          {document(whole(input, 'revision'))}
          {environment && <> in {envLink(environment)}</>}
        </>
      ) : (
        envLink(environment)
      );
  }
}
