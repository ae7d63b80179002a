import type { ErrorObject } from 'ajv/dist/2020.js';

/** One way a value breaks its schema, ready to be located in the YAML document. */
export interface Violation {
  /** JSON pointer to the offending value, or to the mapping a key is missing from or should not be in. */
  pointer: string;
  /** The key to report at, inside the mapping at `pointer`; null to report at the value itself. */
  key: string | null;
  /** The message, given the operator's name for `pointer` (empty for the root). */
  describe: (where: string) => string;
}

const SHOWN_VALUES = 10;
const SHOWN_STRING = 40;
const COMPARISONS: Readonly<Record<string, string>> = {
  '>=': 'at least',
  '<=': 'at most',
  '>': 'greater than',
  '<': 'less than',
};

/**
 * Ajv's errors as violations the operator can act on. `if` errors are dropped
 * (the failing `then`/`else` reports the reason), and so are the errors of an
 * anyOf/oneOf/contains's own subschemas: the keyword reports once — unless a
 * more specific reason at the same place (from a branch behind a $ref) came
 * just before it.
 */
export function violations(errors: readonly ErrorObject[]): Violation[] {
  const combinators = errors.filter(isFailedCombinator).map((error) => `${error.schemaPath}/`);
  const kept = errors.filter(
    (error) =>
      error.keyword !== 'if' &&
      error.propertyName === undefined &&
      !combinators.some((prefix) => error.schemaPath.startsWith(prefix)),
  );
  return kept
    .filter((error, index) => !(isFailedCombinator(error) && kept[index - 1]?.instancePath === error.instancePath))
    .map(violation);
}

function isFailedCombinator(error: ErrorObject): boolean {
  const folds = error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'contains';
  return folds && !Array.isArray(error.params['passingSchemas']);
}

function violation(error: ErrorObject): Violation {
  const params: Record<string, unknown> = error.params;
  const at = (describe: (subject: string) => string): Violation => ({
    pointer: error.instancePath,
    key: null,
    describe: (where) => describe(where === '' ? 'the document' : where),
  });
  const atKey = (key: string, describe: (container: string) => string): Violation => ({
    pointer: error.instancePath,
    key,
    describe: (where) => describe(where === '' ? 'the document' : where),
  });
  const limit = String(params['limit']);
  switch (error.keyword) {
    case 'type':
      return at((subject) => `${subject} must be ${typeNames(String(params['type']))}, not ${found(error.data)}`);
    case 'required':
      return at((subject) => `${subject} is missing the required key ${quote(params['missingProperty'])}`);
    case 'dependentRequired':
      return at(
        (subject) =>
          `${subject} is missing the key ${quote(params['missingProperty'])}, which ${quote(params['property'])} requires`,
      );
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const key = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
      return atKey(key, (container) => `${quote(key)} is not an allowed key in ${container}; remove it or check its spelling`);
    }
    case 'propertyNames': {
      const key = String(params['propertyName']);
      return atKey(key, (container) => `${quote(key)} is not a valid key name in ${container}`);
    }
    case 'enum':
      return at((subject) => `${subject} must be one of ${listed(params['allowedValues'])}`);
    case 'const':
      return at((subject) => `${subject} must be ${JSON.stringify(params['allowedValue'])}`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at((subject) => `${subject} must be ${COMPARISONS[String(params['comparison'])] ?? ''} ${limit}`);
    case 'multipleOf':
      return at((subject) => `${subject} must be a multiple of ${String(params['multipleOf'])}`);
    case 'minLength':
    case 'maxLength':
      return at((subject) => `${subject} must be ${bound(error.keyword)} ${counted(limit, 'character')} long`);
    case 'minItems':
    case 'maxItems':
      return at((subject) => `${subject} must hold ${bound(error.keyword)} ${counted(limit, 'item')}`);
    case 'minProperties':
    case 'maxProperties':
      return at((subject) => `${subject} must hold ${bound(error.keyword)} ${counted(limit, 'key')}`);
    case 'uniqueItems':
      return at((subject) => {
        const [first, second] = [Number(params['i']), Number(params['j'])].sort((a, b) => a - b);
        return `${subject} must not repeat items; items ${String(first)} and ${String(second)} (counting from 0) are equal`;
      });
    case 'pattern':
      return at((subject) => `${subject} must match the pattern ${String(params['pattern'])}`);
    case 'format':
      return at((subject) => `${subject} must be a valid ${String(params['format'])}`);
    case 'anyOf':
      return at((subject) => `${subject} matches none of the forms its schema allows (anyOf)`);
    case 'oneOf':
      return Array.isArray(params['passingSchemas'])
        ? at((subject) => `${subject} matches more than one of the forms its schema allows (oneOf); it must match exactly one`)
        : at((subject) => `${subject} matches none of the forms its schema allows (oneOf)`);
    case 'contains': {
      const least = String(params['minContains'] ?? 1);
      const most = params['maxContains'];
      const count = most === undefined ? `at least ${counted(least, 'item')}` : `from ${least} to ${String(most)} items`;
      return at((subject) => `${subject} must hold ${count} matching its "contains" schema`);
    }
    case 'not':
      return at((subject) => `${subject} matches a form its schema forbids (not)`);
    case 'false schema':
      return at((subject) => `${subject} is not allowed here`);
    default:
      return at((subject) => `${subject} ${error.message ?? `breaks the schema's ${error.keyword} rule`}`);
  }
}

function typeNames(types: string): string {
  const article = (type: string): string =>
    type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  return types.split(',').map(article).join(' or ');
}

/** The value a type error found, as the operator would name it (needs Ajv's `verbose`). */
function found(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > SHOWN_STRING ? `${value.slice(0, SHOWN_STRING)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `the ${typeof value} ${String(value)}`;
    default:
      return 'an object';
  }
}

function bound(keyword: string): string {
  return keyword.startsWith('min') ? 'at least' : 'at most';
}

function counted(limit: string, noun: string): string {
  return `${limit} ${noun}${limit === '1' ? '' : 's'}`;
}

function quote(value: unknown): string {
  return JSON.stringify(String(value));
}

function listed(values: unknown): string {
  const all = Array.isArray(values) ? values.map((value) => JSON.stringify(value)) : [];
  const shown = all.slice(0, SHOWN_VALUES).join(', ');
  return all.length > SHOWN_VALUES ? `${shown}, … (${all.length} values)` : shown;
}
