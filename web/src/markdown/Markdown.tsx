// An answer's Markdown, rendered safely (see parse.ts and render.tsx).
import { useMemo } from 'react';
import { markdownTokens } from './parse';
import { renderTokens } from './render';
import './markdown.css';

export function Markdown({ text }: { text: string }) {
  const content = useMemo(() => renderTokens(markdownTokens(text)), [text]);
  return <div className="markdown">{content}</div>;
}
