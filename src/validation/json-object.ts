// The one test for "a JSON object" (not an array, not null), shared by whatever reads untyped JSON.
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
