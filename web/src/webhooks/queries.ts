// A project's webhooks and their recent deliveries (admins only: the server refuses others).
import { useQuery } from '@tanstack/react-query';
import type { DeliveryResponse, WebhookResponse } from '../../../src/wire/webhook';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';

export const webhooksPath = (project: string) => `/api/v1/projects/${encodeURIComponent(project)}/webhooks`;

export function useWebhooks(project: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.webhooks(project), queryFn: ({ signal }) => api<WebhookResponse[]>('GET', webhooksPath(project), undefined, signal), enabled });
}

/** Read again every few seconds while one waits to be sent, else now and then (what a change tells arrives without the page). */
export function useDeliveries(project: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(project),
    queryFn: ({ signal }) => api<DeliveryResponse[]>('GET', `/api/v1/projects/${encodeURIComponent(project)}/webhook-deliveries?limit=50`, undefined, signal),
    enabled,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 2_000 : 10_000),
  });
}
