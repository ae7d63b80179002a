// What the store can hold: no NUL, no lone surrogate; a surrogate pair is a character like any other.
import { describe, expect, it } from 'vitest';
import { replaceUnstorable, storableJson, unstorableReason } from '../../src/store/storable.js';

describe('storable text', () => {
  it('names NUL and lone surrogates, and lets everything else through, emoji included', () => {
    expect(unstorableReason('a\u0000b')).toBe('must not contain a NUL character (\\u0000)');
    for (const lone of ['\ud800', 'a\ud800b', '\udc00', 'x\udfff', '\ud83d']) {
      expect(unstorableReason(lone), JSON.stringify(lone)).toBe('must not contain a lone surrogate (invalid UTF-16)');
    }
    for (const fine of ['', 'plain', 'é', '😀', 'a😀b\n\t', '\u0001\u001f', '\uFFFD']) expect(unstorableReason(fine)).toBeNull();
  });

  it('replaces each unstorable character by U+FFFD and keeps pairs whole', () => {
    expect(replaceUnstorable('a\u0000😀\ud800b\udc00')).toEqual({ text: 'a\uFFFD😀\uFFFDb\uFFFD', replaced: 3 });
    expect(replaceUnstorable('😀')).toEqual({ text: '😀', replaced: 0 });
  });

  it('cuts a long string before a surrogate pair rather than between its halves (an emoji at the cut)', () => {
    const { value } = storableJson({ text: 'abcd😀efgh' }, { depth: 4, stringLength: 5 });
    expect(value).toEqual({ text: 'abcd' });
    expect(unstorableReason((value as { text: string }).text)).toBe(null);
    expect(storableJson({ text: 'abc😀efgh' }, { depth: 4, stringLength: 5 }).value).toEqual({ text: 'abc😀' });
  });

  it('makes any JSON value storable and says what it changed', () => {
    expect(storableJson({ a: ['x'] }, { depth: 4, stringLength: 10 })).toEqual({ value: { a: ['x'] }, changes: [] });
    expect(storableJson({ ['k\u0000']: 'v'.repeat(20), deep: [[[['x']]]] }, { depth: 3, stringLength: 10 })).toEqual({
      value: { 'k\uFFFD': 'v'.repeat(10), deep: [['[nested deeper than 3 levels]']] },
      changes: [
        '1 NUL character(s) or lone surrogate(s) replaced by U+FFFD',
        '1 string(s) cut to 10 characters',
        'nesting cut at 3 levels',
      ],
    });
  });
});
