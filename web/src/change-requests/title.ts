// A change request named by what it would do, where: its card's heading and its dialogs' question.
import type { ChangeRequestResponse } from '../../../src/wire/change-request';

export function requestTitle({ change, environment }: ChangeRequestResponse): string {
  switch (change.kind) {
    case 'document':
      return change.rollback
        ? `Roll back ${change.path} to r${change.revision} in ${environment}`
        : `Deploy ${change.path} r${change.revision} to ${environment}`;
    case 'secret':
      return change.action === 'set' ? `Set secret ${change.name} in ${environment}` : `Delete secret ${change.name} from ${environment}`;
    case 'protection':
      return `Change the protection of ${environment}`;
  }
}
