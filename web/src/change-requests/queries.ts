// Change requests as the routes answer them (DESIGN.md §13): lists by who
// they wait for or who asked, one by id, and deciding one. The tab's change
// stream (stream.ts) keeps every list and request read here current.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import type { ChangeRequestResponse, ChangeRequestStatus } from '../../../src/wire/change-request';

/** Which requests a list shows: waiting for me, asked by me, or all (of the project, when one is named). */
export type Show = 'for-me' | 'by-me' | 'all';

export interface ListFilter {
  show: Show;
  project?: string | undefined;
  status?: ChangeRequestStatus | undefined;
}

function listPath({ show, project, status }: ListFilter): string {
  const query = new URLSearchParams();
  if (show === 'for-me') query.set('for', 'me');
  if (show === 'by-me') query.set('by', 'me');
  if (project) query.set('project', project);
  if (status) query.set('status', status);
  return `/api/v1/change-requests?${query}`;
}

export function useChangeRequests(filter: ListFilter) {
  return useQuery({
    queryKey: queryKeys.changeRequests(filter.show, filter.project ?? null, filter.status ?? null),
    queryFn: ({ signal }) => api<ChangeRequestResponse[]>('GET', listPath(filter), undefined, signal),
  });
}

export function useChangeRequest(id: string) {
  return useQuery({
    queryKey: queryKeys.changeRequest(id),
    queryFn: ({ signal }) => api<ChangeRequestResponse>('GET', `/api/v1/change-requests/${encodeURIComponent(id)}`, undefined, signal),
  });
}

/** Approves the request as read (its fingerprint; comment optional) or declines it (comment required) as the signed-in operator. */
export function decide(request: ChangeRequestResponse, decision: 'approve' | 'decline', comment: string): Promise<ChangeRequestResponse> {
  const body = { ...(comment ? { comment } : {}), ...(decision === 'approve' ? { fingerprint: request.fingerprint } : {}) };
  return api<ChangeRequestResponse>('POST', `/api/v1/change-requests/${encodeURIComponent(request.id)}/${decision}`, body);
}

/** Where a request is shown: its project's page of change requests, opened at it. */
export function requestHref(project: string, id: string): string {
  return `/projects/${encodeURIComponent(project)}/change-requests/${encodeURIComponent(id)}`;
}
