// What an audit entry acted on, read from its recorded input, with a link to
// where it can be seen: a document's revision in its history, an environment
// (its deployments and secrets), the members. A write's new revision is its
// base plus one (a write on any other base is refused). The entry keeps the
// input, and a save's, deploy's or rollback's entry adds what it made
// (`made`): the revision that went live, even when the input left it open.
// A save's message is shown beside its revision.
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

/** What a write's entry adds beside its input (entries from before it was recorded have none). */
const made = (input: unknown): unknown => (input as Record<string, unknown> | null)?.made;

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
      const revision = entry.outcome !== 'ok' ? undefined : (whole(made(input), 'revision') ?? (whole(input, 'base_revision') ?? 0) + 1);
      const message = text(input, 'message');
      return (
        <>
          {document(revision)}
          {message && <span className="message"> “{message}”</span>}
        </>
      );
    }
    case 'delete_document':
      return path ? <code>{path}</code> : null;
    case 'deploy': {
      // The revision that went live; an entry recorded before `made` was kept, or a failed deploy, has only what was asked.
      const revision = whole(made(input), 'revision') ?? whole(input, 'revision');
      return (
        <>
          {document(revision)}
          {revision === undefined && ' (current)'} → {envLink(environment)}
        </>
      );
    }
    case 'rollback': {
      const revision = whole(made(input), 'revision') ?? whole(input, 'revision');
      return (
        <>
          {document(revision)} in {envLink(environment)}
        </>
      );
    }
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
