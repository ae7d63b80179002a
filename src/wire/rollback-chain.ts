// Which revision a rollback brings back. Not simply the last one live before
// the current: after r3 was rolled back to r2, a second rollback must go on to
// r1, not toggle back to the r3 just rolled back from. So the deployments are
// replayed as a stack of what was live: a deploy pushes its revision, a
// rollback pops back to the revision it restored. What a rollback brings back
// is the entry below the top. Pure, so the server and the console's
// confirmation answer alike.

export interface Deployed {
  revision: number;
  rollback: boolean;
}

/** The revision a rollback would put live after `deployments` (oldest first, the live one last); null when there is none. */
export function rollbackRevision(deployments: readonly Deployed[]): number | null {
  const live: number[] = [];
  for (const { revision, rollback } of deployments) {
    // A rollback restored an earlier entry: what came after it is undone. One whose revision the stack lacks
    // (its history cut short, or made under the older rule) counts as a deploy.
    const restored = rollback ? live.lastIndexOf(revision) : -1;
    if (restored >= 0) live.length = restored + 1;
    else if (live.at(-1) !== revision) live.push(revision);
  }
  return live.at(-2) ?? null;
}
