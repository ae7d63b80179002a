// Cuts a text for quoting in a sentence without splitting a character.

/** The first `count` characters of `text`, counted in code points so no emoji is cut in half. */
export function firstCharacters(text: string, count: number): string {
  // 2 × count UTF-16 units hold at least count code points, without splitting all of a long text.
  return Array.from(text.slice(0, 2 * count))
    .slice(0, count)
    .join('');
}
