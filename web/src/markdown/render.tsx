// markdown-it's tokens as React elements. Only the tags its own rules make
// are rendered (anything else shows its content as text); links go through
// SafeLink and code blocks get a Copy button. A line break in the text is a
// line break on screen: answers and Aion's notes put one line per fact.
import { createElement, Fragment, type ReactNode } from 'react';
import type { Token } from 'markdown-it';
import { CodeBlock } from './CodeBlock';
import { SafeLink } from './SafeLink';

const TAGS = new Set(['p', 'blockquote', 'ul', 'ol', 'li', 'thead', 'tbody', 'tr', 'th', 'td', 'em', 'strong', 's']);
const ALIGN = /text-align:(left|center|right)/;

export function renderTokens(tokens: readonly Token[]): ReactNode[] {
  const root: ReactNode[] = [];
  const open: { token: Token; children: ReactNode[] }[] = [];
  const siblings = () => open.at(-1)?.children ?? root;
  tokens.forEach((token, key) => {
    if (token.nesting === 1) {
      open.push({ token, children: [] });
    } else if (token.nesting === -1) {
      const element = open.pop();
      if (element) siblings().push(container(element.token, element.children, key));
    } else {
      siblings().push(leaf(token, key));
    }
  });
  return root;
}

function container(token: Token, children: ReactNode[], key: number): ReactNode {
  // A tight list's paragraphs are hidden: their text sits in the item itself.
  if (token.hidden) return <Fragment key={key}>{children}</Fragment>;
  switch (token.type) {
    case 'link_open':
      return (
        <SafeLink key={key} href={String(token.attrGet('href') ?? '')}>
          {children}
        </SafeLink>
      );
    case 'heading_open':
      // Below the panel's own headings (h2, and h3 on cards): an answer's # is a small heading.
      return createElement(`h${Math.min(Number(token.tag.slice(1)) + 3, 6)}`, { key }, children);
    case 'ordered_list_open':
      return (
        <ol key={key} start={Number(token.attrGet('start') ?? 1)}>
          {children}
        </ol>
      );
    case 'table_open':
      return (
        <div key={key} className="md-table" tabIndex={0}>
          <table>{children}</table>
        </div>
      );
    case 'th_open':
    case 'td_open': {
      const align = ALIGN.exec(String(token.attrGet('style') ?? ''))?.[1] as 'left' | 'center' | 'right' | undefined;
      return createElement(token.tag, { key, style: align ? { textAlign: align } : undefined }, children);
    }
    default:
      return TAGS.has(token.tag) ? createElement(token.tag, { key }, children) : <Fragment key={key}>{children}</Fragment>;
  }
}

function leaf(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'inline':
      return <Fragment key={key}>{renderTokens(token.children ?? [])}</Fragment>;
    case 'code_inline':
      return <code key={key}>{token.content}</code>;
    case 'softbreak':
    case 'hardbreak':
      return <br key={key} />;
    case 'fence':
      return <CodeBlock key={key} code={token.content} label={token.info.trim().split(/\s+/)[0] ?? ''} />;
    case 'code_block':
      return <CodeBlock key={key} code={token.content} label="" />;
    case 'hr':
      return <hr key={key} />;
    default:
      // Text, and whatever else carries content, as text: React escapes it.
      return token.content;
  }
}
