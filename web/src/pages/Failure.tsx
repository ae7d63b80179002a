// A failed load, in the server's sentence.
export function Failure({ error }: { error: unknown }) {
  return (
    <p role="alert" className="error">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
