const MAX_PATH_LENGTH = 200;
const DOCUMENT_EXTENSION = /\.(yaml|yml|json)$/;
const FORBIDDEN_CHARACTER = /[^a-z0-9._/-]/;

/**
 * Null when `path` may name a document, else a sentence saying what is wrong
 * and what to do. "." segments are refused along with ".." so that one
 * document has exactly one path.
 */
export function documentPathProblem(path: string): string | null {
  if (path === '') return 'the path is empty; name the document, e.g. app.yaml';
  if (path.length > MAX_PATH_LENGTH) {
    return `the path is ${path.length} characters long; use at most ${MAX_PATH_LENGTH}`;
  }
  const shown = JSON.stringify(path);
  if (path.startsWith('/')) {
    return `the path ${shown} starts with "/"; paths are relative to the project, e.g. app.yaml`;
  }
  const forbidden = FORBIDDEN_CHARACTER.exec(path);
  if (forbidden) {
    return `the path ${shown} contains ${JSON.stringify(forbidden[0])}; use only a-z, 0-9, ".", "_", "-" and "/"`;
  }
  const segments = path.split('/');
  if (segments.includes('')) {
    return `the path ${shown} has an empty segment; remove the extra "/"`;
  }
  if (segments.includes('..')) return `the path ${shown} has a ".." segment; paths cannot leave the project`;
  if (segments.includes('.')) return `the path ${shown} has a "." segment; remove it`;
  if (!DOCUMENT_EXTENSION.test(path)) return `the path ${shown} must end in .yaml, .yml or .json`;
  return null;
}
