// A project's webhooks and their recent deliveries (admins only: the server refuses others).
import { useQuery } from '@tanstack/react-query';
import type { DeliveryResponse, WebhookResponse } from '../../../src/wire/webhook';
import { api } from '../api/client';
import { queryKeys } from '../api/queryKeys';

export const webhooksPath = (project: string) => `/api/v1/projects/${encodeURIComponent(project)}/webhooks`;

export function useWebhooks(project: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.webhooks(project), queryFn: () => api<WebhookResponse[]>('GET', webhooksPath(project)), enabled });
}

/** Read again every few seconds while one still waits to be sent. */
export function useDeliveries(project: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(project),
    queryFn: () => api<DeliveryResponse[]>('GET', `/api/v1/projects/${encodeURIComponent(project)}/webhook-deliveries?limit=50`),
    enabled,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 3_000 : false),
  });
}
