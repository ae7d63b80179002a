// The editor's three-way merge (web/src/editor/merge3): changes to different
// lines are both kept; the same lines changed differently are a conflict
// that resolves to the other operator's text unless the operator chooses
// theirs otherwise.
import { describe, expect, it } from 'vitest';
import { conflictsOf, merge3, resolve } from '../../web/src/editor/merge3.js';

const BASE = '# shop\nservice: shop\nport: 8080\nfeatures:\n  new_checkout: false\n';

describe('merge3', () => {
  it('keeps both sides when they changed different lines', () => {
    const mine = BASE.replace('# shop\n', '# shop\n# mine\n');
    const theirs = BASE.replace('port: 8080', 'port: 9191');
    const merged = merge3(BASE, mine, theirs);
    expect(conflictsOf(merged)).toEqual([]);
    expect(resolve(merged, [])).toBe('# shop\n# mine\nservice: shop\nport: 9191\nfeatures:\n  new_checkout: false\n');
  });

  it('takes the one side that changed, and agrees when both made the same change', () => {
    const theirs = BASE.replace('false', 'true');
    expect(resolve(merge3(BASE, BASE, theirs), [])).toBe(theirs);
    expect(resolve(merge3(BASE, theirs, BASE), [])).toBe(theirs);
    expect(conflictsOf(merge3(BASE, theirs, theirs))).toEqual([]);
  });

  it('holds a conflict where both changed the same line, theirs unless mine is chosen', () => {
    const mine = BASE.replace('port: 8080', 'port: 7070').replace('# shop', '# shop!');
    const theirs = BASE.replace('port: 8080', 'port: 9191');
    const merged = merge3(BASE, mine, theirs);
    expect(conflictsOf(merged)).toEqual([{ base: 'port: 8080\n', mine: 'port: 7070\n', theirs: 'port: 9191\n', theirsLine: 3 }]);
    expect(resolve(merged, [])).toBe(theirs.replace('# shop', '# shop!'));
    expect(resolve(merged, ['mine'])).toBe(mine);
  });

  it('treats an insertion where the other side changed lines as a conflict, and merges texts without a final newline', () => {
    const merged = merge3('a\nb\nc', 'a\nx\nb\nc', 'a\ny\nc');
    expect(conflictsOf(merged)).toHaveLength(1);
    expect(resolve(merged, ['theirs'])).toBe('a\ny\nc');
    expect(resolve(merge3('a\nb', 'a\nb\nc', 'z\nb'), [])).toBe('z\nb\nc');
  });

  it('numbers conflicts by their lines in the other operator’s text', () => {
    const base = 'one\ntwo\nthree\nfour\n';
    const merged = merge3(base, 'one\nTWO\nthree\nFOUR\n', 'zero\none\n2\nthree\n4\n');
    expect(conflictsOf(merged).map((c) => c.theirsLine)).toEqual([3, 5]);
  });
});
