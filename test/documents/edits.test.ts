import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, applyReplacements } from '../../src/documents/index.js';
import type { EditsResult, TextEdit } from '../../src/documents/index.js';

const edit = (old_string: string, new_string: string): TextEdit => ({ old_string, new_string });

/** The obvious implementation, as the model the fast one must agree with. */
function modelApplyEdits(text: string, edits: readonly TextEdit[]): { ok: true; text: string } | { ok: false; index: number } {
  let current = text;
  for (const [position, { old_string, new_string }] of edits.entries()) {
    // An empty old_string occurs exactly once only in an empty text.
    const at = old_string === '' ? (current === '' ? 0 : -1) : current.indexOf(old_string);
    if (at === -1 || (old_string !== '' && current.indexOf(old_string, at + 1) !== -1)) return { ok: false, index: position + 1 };
    current = current.slice(0, at) + new_string + current.slice(at + old_string.length);
  }
  return { ok: true, text: current };
}

function failure(result: EditsResult): { index: number; message: string } {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.text)}`);
  return { index: result.index, message: result.message };
}

describe('applyEdits', () => {
  it('replaces a unique old_string', () => {
    expect(applyEdits('port: 80\nhost: a\n', [edit('port: 80', 'port: 8080')])).toMatchObject({ ok: true, text: 'port: 8080\nhost: a\n' });
  });

  it('applies each edit to the text the previous one produced', () => {
    const result = applyEdits('a: 1\nb: 2\n', [edit('a: 1', 'a: 1\nc: 3'), edit('c: 3\nb', 'c: 33\nb'), edit('b: 2\n', '')]);
    expect(result).toEqual({
      ok: true,
      text: 'a: 1\nc: 33\n',
      replacements: [
        { at: 0, removed: 4, text: 'a: 1\nc: 3' },
        { at: 5, removed: 6, text: 'c: 33\nb' },
        { at: 11, removed: 5, text: '' },
      ],
    });
  });

  it('lets an earlier edit make a later old_string unique', () => {
    expect(applyEdits('x x', [edit('x x', 'x y'), edit('x', 'z')])).toMatchObject({ ok: true, text: 'z y' });
  });

  it('finds an old_string that spans the seam an earlier deletion left', () => {
    expect(applyEdits('ab-cd', [edit('-', ''), edit('bc', 'BC')])).toMatchObject({ ok: true, text: 'aBCd' });
  });

  it('fails the whole batch on an old_string that does not occur', () => {
    expect(failure(applyEdits('a: 1\n', [edit('b: 2', 'b: 3')]))).toEqual({
      index: 1,
      message: 'edit 1: old_string does not occur in the document; quote the text exactly as it stands, including spaces and line breaks',
    });
    expect(failure(applyEdits('a: 1\n', [edit('a: 1', 'a: 2'), edit('a: 1', 'a: 3')]))).toEqual({
      index: 2,
      message:
        'edit 2: old_string does not occur in the document as the edits before it left it; quote the text exactly as it stands, including spaces and line breaks',
    });
  });

  it('fails the whole batch on an old_string that occurs more than once, overlapping or not', () => {
    const expected = { index: 3, message: 'edit 3: old_string occurs more than once; quote more surrounding text to make it unique' };
    expect(failure(applyEdits('a b c a', [edit('b', 'B'), edit('c', 'C'), edit('a', 'A')]))).toEqual(expected);
    expect(failure(applyEdits('aaa', [edit('a', 'a'), edit('a', 'a'), edit('aa', 'b')])).index).toBe(1);
    expect(failure(applyEdits('xaaa', [edit('x', 'y'), edit('y', 'z'), edit('aa', 'b')]))).toEqual(expected);
  });

  it('refuses an empty old_string on a document that is not empty', () => {
    expect(failure(applyEdits('a', [edit('a', 'b'), edit('', 'c')]))).toEqual({
      index: 2,
      message: 'edit 2: old_string is empty; quote the text to replace (only an empty document takes an empty old_string)',
    });
  });

  it('takes an empty old_string on an empty document, where it occurs exactly once', () => {
    expect(applyEdits('', [edit('', 'a: 1\n')])).toMatchObject({ ok: true, text: 'a: 1\n' });
    // Emptied by an earlier edit of the batch, then filled.
    expect(applyEdits('a: 1', [edit('a: 1', ''), edit('', 'b: 2'), edit('b', 'c')])).toMatchObject({ ok: true, text: 'c: 2' });
    expect(applyEdits('', [edit('', '')])).toMatchObject({ ok: true, text: '' });
  });

  it('returns no text on failure, and never changes its input', () => {
    const text = 'a: 1\nb: 2\n';
    const edits = [edit('a: 1', 'a: 9'), edit('missing', 'x')];
    const result = applyEdits(text, edits);
    expect(result).not.toHaveProperty('text');
    expect(text).toBe('a: 1\nb: 2\n');
    expect(edits).toEqual([edit('a: 1', 'a: 9'), edit('missing', 'x')]);
  });

  it('edits multi-byte text by UTF-16 code units', () => {
    expect(applyEdits('name: café 😀\nü: 1\n', [edit('😀', '🚀'), edit('é 🚀', 'e 🚀'), edit('ü', 'u')])).toMatchObject({
      ok: true,
      text: 'name: cafe 🚀\nu: 1\n',
    });
  });

  it('matches CRLF text when old_string carries the \\r, and says so when it does not', () => {
    const text = 'a: 1\r\nb: 2\r\n';
    expect(applyEdits(text, [edit('a: 1\r\nb: 2', 'a: 1\r\nb: 3')])).toMatchObject({ ok: true, text: 'a: 1\r\nb: 3\r\n' });
    expect(failure(applyEdits(text, [edit('a: 1\nb: 2', 'x')]))).toEqual({
      index: 1,
      message:
        'edit 1: old_string does not occur in the document; quote the text exactly as it stands, including spaces and line breaks, which are \\r\\n in this document',
    });
  });

  it('agrees with the obvious implementation', () => {
    const alphabet = fc.constantFrom('a', 'b', '\n', '\r\n', 'é', '😀');
    const fragment = fc.array(alphabet, { maxLength: 6 }).map((parts) => parts.join(''));
    const scenario = fc.record({
      text: fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')),
      edits: fc.array(
        fc.record({ from: fc.nat(), length: fc.integer({ min: 0, max: 8 }), replacement: fragment, invent: fc.boolean() }),
        { minLength: 1, maxLength: 8 },
      ),
    });
    fc.assert(
      fc.property(scenario, ({ text, edits }) => {
        // Mostly quote the text as the previous edits left it, so that many batches succeed.
        let current = text;
        const batch = edits.map(({ from, length, replacement, invent }) => {
          const start = current.length === 0 ? 0 : from % current.length;
          const quoted = invent ? replacement : current.slice(start, start + length);
          const step = modelApplyEdits(current, [edit(quoted, replacement)]);
          if (step.ok) current = step.text;
          return edit(quoted, replacement);
        });
        const expected = modelApplyEdits(text, batch);
        const actual = applyEdits(text, batch);
        expect(actual.ok ? { ok: true, text: actual.text } : { ok: false, index: actual.index }).toEqual(expected);
        // The replacements it reports make the same text again, as a replay of a logged batch does.
        if (actual.ok) expect(applyReplacements(text, actual.replacements)).toBe(actual.text);
      }),
      { numRuns: 3000 },
    );
  });
});
