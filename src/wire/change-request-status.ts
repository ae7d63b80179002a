// The statuses of a change request, which a proposal that waits on one names too.
export const CHANGE_REQUEST_STATUSES = ['pending', 'approved', 'failed', 'declined', 'withdrawn', 'expired', 'stale'] as const;

export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

export const changeRequestStatusSchema = {
  type: 'string',
  enum: CHANGE_REQUEST_STATUSES,
  description:
    '`pending` (waits for a second operator), `approved` (it ran), `failed` (approved, but the change failed), `declined`, `withdrawn` (by the requester), `expired` (nobody decided in time) or `stale` (what it would change moved, so it can never run).',
} as const;
