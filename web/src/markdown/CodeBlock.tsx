// A block of code or JSON with its label (a language, "Input") and a Copy
// button (named `copyName`) that says for a moment whether it copied.
import { useEffect, useState } from 'react';
import { copyText } from './copyText';

const SAID_FOR_MS = 2000;

export function CodeBlock({ code, label, copyName = 'Copy code' }: { code: string; label: string; copyName?: string }) {
  const [copied, setCopied] = useState<'' | 'Copied' | 'Not copied'>('');
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(''), SAID_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const text = code.replace(/\n$/, '');
  return (
    <div className="code-block">
      <div className="code-head">
        <span className="code-label">{label}</span>
        <button
          type="button"
          className="copy"
          aria-label={copyName}
          onClick={() => copyText(text).then(() => setCopied('Copied'), () => setCopied('Not copied'))}
        >
          {copied || 'Copy'}
        </button>
        <span className="visually-hidden" role="status">
          {copied}
        </span>
      </div>
      <pre tabIndex={0}>
        <code>{text}</code>
      </pre>
    </div>
  );
}
