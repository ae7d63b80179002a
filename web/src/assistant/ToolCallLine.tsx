// One tool call of an answer: its kind and status in plain words, its title
// and where it acted (a refused call says why). A call of the built-in
// assistant carries its input and result: its line opens to show them.
import type { ToolCall } from '../../../src/wire/agent-work';
import { CodeBlock } from '../markdown/CodeBlock';

/**
 * ACP's tool kinds (and the built-in read and edit) as an operator says them.
 * `other` is what agents give a call of an MCP tool, Aion's included: "tool",
 * not "other".
 */
const KIND: Record<string, string> = { execute: 'run', switch_mode: 'mode', other: 'tool', think: 'thought' };
/** An agent's name for an MCP tool (`mcp__aion__read_document`, Gemini's `mcp_aion_read_document`) as the tool's own name. */
const toolTitle = (title: string) => title.replace(/^mcp__?aion__?/, '');
const STATUS: Record<string, string> = { pending: 'waiting', in_progress: 'running', completed: 'done', failed: 'failed', proposed: 'proposed' };

export const statusWord = (status: string) => STATUS[status] ?? status.replaceAll('_', ' ');
const kindWord = (kind: string) => KIND[kind] ?? kind.replaceAll('_', ' ');

export function ToolCallLine({ call }: { call: ToolCall }) {
  const line = (
    <>
      <span className="kind">{kindWord(call.kind)}</span>
      <span className="title">
        {toolTitle(call.title)}
        {call.locations.length > 0 && <span className="muted"> · {call.locations.map((l) => (l.line ? `${l.path}:${l.line}` : l.path)).join(', ')}</span>}
      </span>
      <span className="status">{call.refused ? 'refused' : statusWord(call.status)}</span>
    </>
  );
  const className = `tool-call ${call.refused ? 'refused' : call.status}`;
  if (call.input === undefined && call.result === undefined) {
    return (
      <li className={className}>
        {line}
        {call.refused && <span className="why">{call.refused}</span>}
      </li>
    );
  }
  return (
    <li className={`${className} expandable`}>
      <details>
        <summary>{line}</summary>
        <div className="tool-io">
          {call.input !== undefined && <CodeBlock code={readable(call.input)} label="Input" copyName="Copy input" />}
          {call.result !== undefined && (
            <CodeBlock code={readable(call.result)} label={call.status === 'failed' ? 'Error' : 'Result'} copyName="Copy result" />
          )}
        </div>
      </details>
    </li>
  );
}

/** JSON indented to read; a cut one (it no longer parses) as it came. */
function readable(json: string): string {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}
