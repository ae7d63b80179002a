// The change notices of change requests: `change-requests:<project>:<id>:<status>`,
// told whenever one is opened or decided, so every console on every server follows.
import type { ChangeRequestChange } from '../wire/change-request.js';
import { CHANGE_REQUEST_STATUSES } from '../wire/change-request-status.js';

const PREFIX = 'change-requests:';

export function changeRequestTopic(change: ChangeRequestChange) {
  return `${PREFIX}${change.project}:${change.id}:${change.status}` as const;
}

/** The change a topic announces, or null when it is about something else. */
export function changeRequestChangeOf(topic: string): ChangeRequestChange | null {
  if (!topic.startsWith(PREFIX)) return null;
  const [project, id, said] = topic.slice(PREFIX.length).split(':');
  const status = CHANGE_REQUEST_STATUSES.find((s) => s === said);
  return project && id && status ? { project, id, status } : null;
}
