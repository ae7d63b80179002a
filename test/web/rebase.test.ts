// The agent's edits rebased over the operator's unsaved ones
// (web/src/editor/changes): both started from the text last shared, so the
// agent's changes are mapped through the operator's and applied to the
// buffer as it is — nothing the operator typed is lost, and their cursor
// keeps its place in their text.
import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { agentChangesOver, changesBetween } from '../../web/src/editor/changes.js';

const BASE = 'service: shop\nport: 8080\nreplicas: 2\n';

/** The buffer `mine` once the agent's edits (`base` → `theirs`) are applied to it. */
const rebased = (base: string, theirs: string, mine: string) => agentChangesOver(base, theirs, mine).apply(EditorState.create({ doc: mine }).doc).toString();

describe('changesBetween', () => {
  it('turns one text into the other, touching only what differs', () => {
    const changes = changesBetween(BASE, BASE.replace('8080', '9090'));
    expect(changes.apply(EditorState.create({ doc: BASE }).doc).toString()).toBe(BASE.replace('8080', '9090'));
    // Only the characters that differ (each 8 that became a 9) are replaced: a cursor elsewhere on the line stays put.
    const touched: [number, number, string][] = [];
    changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => touched.push([fromA, toA, inserted.toString()]));
    expect(touched).toEqual([
      [20, 21, '9'],
      [22, 23, '9'],
    ]);
    expect(changesBetween(BASE, BASE).empty).toBe(true);
  });
});

describe("the agent's edits over the operator's", () => {
  it('keep both when they changed different lines', () => {
    expect(rebased(BASE, BASE.replace('8080', '9090'), BASE.replace('shop', 'shop # mine'))).toBe('service: shop # mine\nport: 9090\nreplicas: 2\n');
  });

  it("put the agent's insertion after the operator's when both inserted at the same place", () => {
    expect(rebased(BASE, `# theirs\n${BASE}`, `# mine\n${BASE}`)).toBe(`# mine\n# theirs\n${BASE}`);
  });

  it('keep what the operator typed inside a range the agent replaced or deleted', () => {
    expect(rebased('port: 8080', 'port: 9090', 'port: 80#80')).toBe('port: 90#90');
    expect(rebased('hello world', 'hello', 'hello big world')).toBe('hellobig ');
  });

  it('change nothing when the agent changed nothing, and give the agent\'s text when the operator changed nothing', () => {
    expect(agentChangesOver(BASE, BASE, BASE.replace('2', '3')).empty).toBe(true);
    const theirs = BASE.replace('replicas: 2', 'replicas: 4');
    expect(rebased(BASE, theirs, BASE)).toBe(theirs);
  });

  it("keep the operator's cursor where it was in their text", () => {
    const mine = BASE.replace('replicas: 2', 'replicas: 3');
    const cursor = mine.indexOf('3') + 1;
    const state = EditorState.create({ doc: mine, selection: EditorSelection.cursor(cursor) });
    const after = state.update({ changes: agentChangesOver(BASE, `# scaled by the agent\n${BASE}`, mine) }).state;
    expect(after.doc.toString()).toBe(`# scaled by the agent\n${mine}`);
    expect(after.selection.main.head).toBe(cursor + '# scaled by the agent\n'.length);
    expect(after.doc.sliceString(after.selection.main.head - 'replicas: 3'.length, after.selection.main.head)).toBe('replicas: 3');
  });
});
