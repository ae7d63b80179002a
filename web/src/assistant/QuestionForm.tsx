// An agent's question in the conversation: a form of its fields, which the
// operator answers or declines. A viewer sees it but does not answer it for an
// operator. It goes when it is answered or with its turn.
import { useState, type FormEvent } from 'react';
import type { Question, QuestionContent, QuestionField } from '../../../src/wire/question';
import { api } from '../api/client';

export function QuestionForm({ threadId, question, holder, viewer }: { threadId: string; question: Question; holder: string; viewer: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (body: { action: 'accept'; content: QuestionContent } | { action: 'decline' }) => {
    setBusy(true);
    setError(null);
    try {
      await api('POST', `/api/v1/assistant/threads/${threadId}/questions/${question.id}`, body);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const content: QuestionContent = {};
    for (const field of question.fields) {
      const value = valueOf(field, data);
      if (value !== undefined) content[field.name] = value;
    }
    void answer({ action: 'accept', content });
  };
  return (
    <form className="agent-question" aria-label={`${holder} asks`} onSubmit={submit}>
      <p>
        <strong>{holder} asks:</strong> {question.message}
      </p>
      <fieldset disabled={busy || viewer}>
        {question.fields.map((field) => (
          <FieldInput key={field.name} field={field} />
        ))}
        <div className="actions">
          <button type="submit">Answer</button>
          <button type="button" onClick={() => void answer({ action: 'decline' })}>
            Decline
          </button>
        </div>
      </fieldset>
      {viewer && <p className="muted small">You are a viewer here: an operator of the project answers this, or Stop the turn.</p>}
      {error && (
        <p role="alert" className="error small">
          {error}
        </p>
      )}
    </form>
  );
}

function FieldInput({ field }: { field: QuestionField }) {
  const label = `${field.title}${field.required ? ' *' : ''}`;
  const hint = field.description ? <span className="muted small"> {field.description}</span> : null;
  switch (field.type) {
    case 'boolean':
      return (
        <label>
          <input type="checkbox" name={field.name} defaultChecked={field.default === true} /> {label}
          {hint}
        </label>
      );
    case 'choice':
      return (
        <label>
          {label}
          {hint}
          <select name={field.name} required={field.required} defaultValue={typeof field.default === 'string' ? field.default : ''}>
            <option value="">—</option>
            {field.options?.map((o) => (
              <option key={o.value} value={o.value}>
                {o.title}
              </option>
            ))}
          </select>
        </label>
      );
    case 'choices':
      return (
        <fieldset>
          <legend>{label}</legend>
          {field.options?.map((o) => (
            <label key={o.value}>
              <input type="checkbox" name={field.name} value={o.value} defaultChecked={Array.isArray(field.default) && field.default.includes(o.value)} /> {o.title}
            </label>
          ))}
        </fieldset>
      );
    default:
      return (
        <label>
          {label}
          {hint}
          <input
            name={field.name}
            type={field.type === 'string' ? 'text' : 'number'}
            step={field.type === 'integer' ? 1 : 'any'}
            required={field.required}
            defaultValue={field.default === null || typeof field.default === 'boolean' || Array.isArray(field.default) ? '' : field.default}
          />
        </label>
      );
  }
}

/** The field's value as the form holds it; undefined when left empty. */
function valueOf(field: QuestionField, data: FormData): QuestionContent[string] | undefined {
  if (field.type === 'boolean') return data.get(field.name) !== null;
  if (field.type === 'choices') return data.getAll(field.name).map(String);
  const raw = String(data.get(field.name) ?? '');
  if (raw === '') return undefined;
  return field.type === 'number' || field.type === 'integer' ? Number(raw) : raw;
}
