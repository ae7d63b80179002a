// One kind of operator action on a page, as a mutation: pending while it
// runs, its error when it fails, the change request it opened when the
// environment requires a second operator's approval, and the queries it
// changes read again once it settles (also after a failure: it may have half
// happened, or someone else changed them).
import { type QueryKey, useMutation, type UseMutationOptions, useQueryClient } from '@tanstack/react-query';
import { readAgain } from '../api/queryKeys';
import { openedRequest } from '../change-requests/opened';

interface Options<Result, Input> extends Pick<UseMutationOptions<Result, Error, Input>, 'mutationFn' | 'onSuccess'> {
  /** The queries (key prefixes) the action may change. */
  changes: readonly QueryKey[];
}

export function useAction<Result, Input = void>({ changes, ...options }: Options<Result, Input>) {
  const queries = useQueryClient();
  const mutation = useMutation({ ...options, onSettled: () => readAgain(queries, changes) });
  return { ...mutation, opened: openedRequest(mutation.data) };
}

/** Of several actions, the failure to show: the last one started, when it failed (starting one clears what the one before said). */
export function newestFailure(...actions: readonly { submittedAt: number; error: Error | null }[]): Error | null {
  return actions.reduce((newest, action) => (action.submittedAt > newest.submittedAt ? action : newest), { submittedAt: -1, error: null }).error;
}
