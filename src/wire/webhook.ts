// Outgoing webhooks as the API and the console read them: the events a hook
// may follow, a hook, and its deliveries.
export const WEBHOOK_EVENTS = [
  'change_request.opened',
  'change_request.partially_approved',
  'change_request.approved',
  'change_request.declined',
  'change_request.stale',
  'change_request.expired',
  'proposal.waiting',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const webhookEventSchema = {
  type: 'string',
  enum: WEBHOOK_EVENTS,
  description:
    '`change_request.opened`, `.partially_approved` (an approval is in and more are needed: 1 of N), `.approved` (also when the approved change then failed), `.declined` (also withdrawn by its requester), `.stale` (marked while pending, or found when approved), `.expired`; `proposal.waiting`: an assistant proposes a change that waits for its operator (an interrupted turn\'s too).',
} as const;

export const webhookSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    events: { type: 'array', items: webhookEventSchema },
    active: { type: 'boolean' },
    created_by: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    /** Only in the answer that creates the hook: never shown again. */
    secret: { type: 'string', description: 'The signing secret, only in the answer that creates the hook; it is never shown again.' },
  },
  required: ['id', 'url', 'events', 'active', 'created_by', 'created_at'],
  additionalProperties: false,
} as const;

export interface WebhookResponse {
  id: string;
  url: string;
  events: WebhookEvent[];
  active: boolean;
  created_by: string | null;
  created_at: string;
  secret?: string;
}

export const deliverySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    webhook: { type: 'string' },
    event: webhookEventSchema,
    summary: { type: 'string' },
    status: { type: 'string', enum: DELIVERY_STATUSES },
    attempts: { type: 'integer' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    created_at: { type: 'string', format: 'date-time' },
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
  },
  required: ['id', 'webhook', 'event', 'summary', 'status', 'attempts', 'next_attempt_at', 'last_status_code', 'last_error', 'created_at', 'delivered_at'],
  additionalProperties: false,
} as const;

export interface DeliveryResponse {
  id: string;
  webhook: string;
  event: WebhookEvent;
  summary: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}
