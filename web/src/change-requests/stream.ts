// What the tab does when a change request of the operator's projects is
// opened or decided on any server (the `change_request` events of GET
// /api/v1/changes): that request and the lists are read again, so the top
// bar's count, the page of requests and an open request stay current.
import type { QueryClient } from '@tanstack/react-query';
import type { ChangeRequestChange } from '../../../src/wire/change-request';
import type { ChangeFollower } from '../api/changeStream';
import { queryKeys } from '../api/queryKeys';

const readLists = (queries: QueryClient) => void queries.invalidateQueries({ queryKey: queryKeys.changeRequests() });

export const changeRequestChanges: ChangeFollower = {
  event: 'change_request',
  changed: (queries, data) => {
    const change = JSON.parse(data) as ChangeRequestChange;
    readLists(queries);
    void queries.invalidateQueries({ queryKey: queryKeys.changeRequest(change.id) });
  },
  missed: readLists,
  readAll: (queries) => {
    readLists(queries);
    void queries.invalidateQueries({ queryKey: queryKeys.changeRequest() });
  },
};
