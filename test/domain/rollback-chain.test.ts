// The revision a rollback brings back, replayed from the deployments: the one
// live before the current, skipping what earlier rollbacks undid.
import { describe, expect, it } from 'vitest';
import { rollbackRevision } from '../../src/wire/rollback-chain.js';

const deploy = (revision: number) => ({ revision, rollback: false });
const back = (revision: number) => ({ revision, rollback: true });

describe('rollbackRevision', () => {
  it('is the revision live before the current one', () => {
    expect(rollbackRevision([deploy(1), deploy(2), deploy(3)])).toBe(2);
  });

  it('goes on back after a rollback, never to the revision just rolled back from', () => {
    expect(rollbackRevision([deploy(1), deploy(2), deploy(3), back(2)])).toBe(1);
    expect(rollbackRevision([deploy(1), deploy(2), deploy(3), back(2), back(1)])).toBeNull();
  });

  it('counts a redeploy of the same revision once, and a deploy after a rollback as new', () => {
    expect(rollbackRevision([deploy(1), deploy(1)])).toBeNull();
    expect(rollbackRevision([deploy(1), deploy(2), back(1), deploy(3)])).toBe(1);
    expect(rollbackRevision([deploy(1), deploy(2), deploy(1), deploy(3), back(1)])).toBe(2);
  });

  it('takes a rollback to a revision its history lacks (cut short) as a deploy', () => {
    expect(rollbackRevision([deploy(5), back(4)])).toBe(5);
  });
});
