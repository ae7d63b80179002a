import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/documents/index.js';

describe('unifiedDiff', () => {
  it('gives a unified diff headed by the path and the two labels', () => {
    const from = 'a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\n';
    const to = 'a: 1\nb: 2\nc: 3\nd: 40\ne: 5\nf: 6\n';
    expect(unifiedDiff('app.yaml', 'r1', from, 'r2', to)).toBe(
      '--- app.yaml\tr1\n+++ app.yaml\tr2\n@@ -1,6 +1,6 @@\n a: 1\n b: 2\n c: 3\n-d: 4\n+d: 40\n e: 5\n f: 6\n',
    );
  });

  it('keeps CRLF line breaks and marks a missing final newline', () => {
    expect(unifiedDiff('app.yaml', 'r3', 'a: 1\r\n', 'live in production', 'a: 2')).toBe(
      '--- app.yaml\tr3\n+++ app.yaml\tlive in production\n@@ -1,1 +1,1 @@\n-a: 1\r\n+a: 2\n\\ No newline at end of file\n',
    );
  });

  it('is empty when the texts are equal', () => {
    expect(unifiedDiff('app.yaml', 'r1', 'a: 1\n', 'r2', 'a: 1\n')).toBe('');
  });
});
