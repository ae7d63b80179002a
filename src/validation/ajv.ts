// The one Ajv setup of the server, for route schemas and tool input schemas
// alike. Whatever a schema says, every string it accepts must be storable (no
// NUL, no lone surrogate) and every integer must fit a 32-bit column: the
// store's limits are added here to each string and integer of a schema as it
// is compiled, so no field can forget them and none reaches the store
// unchecked. A schema is compiled from a copy; what a client reads is the
// schema as declared.
import { Ajv, type ErrorObject, type Options, type SchemaObject, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { INT4_MAX, INT4_MIN, unstorableReason } from '../store/storable.js';

/** The keyword the edge adds to every string schema. */
export const STORABLE = 'storable';

export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: false, strict: false, ...options });
  formats.default(ajv);
  // No `type: 'string'` here: that would move the schema's type check after its enum.
  ajv.addKeyword({ keyword: STORABLE, schemaType: 'boolean', errors: true, validate: storable });
  return ajv;
}

/** An Ajv made when first asked for (a start compiles no schema: see compileAtTheEdge), with `setup` applied. */
export function ajvOnFirstUse(options: Options = {}, setup: (ajv: Ajv) => void = () => {}): () => Ajv {
  let ajv: Ajv | null = null;
  return () => {
    if (!ajv) {
      ajv = createAjv(options);
      setup(ajv);
    }
    return ajv;
  };
}

function storable(enabled: boolean, data: unknown): boolean {
  const reason = enabled && typeof data === 'string' ? unstorableReason(data) : null;
  storable.errors = reason ? [{ keyword: STORABLE, message: reason, params: {} }] : undefined;
  return reason === null;
}
storable.errors = undefined as Partial<ErrorObject>[] | undefined;

/** A schema's check: true when `data` passes; otherwise `errors` says why. */
export type Validate = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

/**
 * The schema's check, with the store's limits on each of its strings and
 * integers, compiled when it is first used: compiling every route's and
 * tool's schema at start was a fifth of a start (test/validation checks that
 * each one compiles).
 */
export function compileAtTheEdge(ajv: () => Ajv, schema: SchemaObject): Validate {
  let compiled: ValidateFunction | null = null;
  const validate: Validate = (data) => {
    compiled ??= compileNow(ajv(), schema);
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

/** Compiles the schema with the store's limits at once. */
export function compileNow(ajv: Ajv, schema: SchemaObject): ValidateFunction {
  return ajv.compile(withStoreLimits(schema) as SchemaObject);
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];

function withStoreLimits(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withStoreLimits);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  for (const key of SUBSCHEMA_MAPS) {
    const map = copy[key];
    if (typeof map === 'object' && map !== null) {
      copy[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, withStoreLimits(sub)]));
    }
  }
  for (const key of [...SUBSCHEMA_LISTS, ...SUBSCHEMAS]) if (key in copy) copy[key] = withStoreLimits(copy[key]);
  const types = [copy.type].flat();
  if (types.includes('string')) copy[STORABLE] = true;
  if (types.includes('integer')) {
    copy.minimum = typeof copy.minimum === 'number' ? Math.max(copy.minimum, INT4_MIN) : INT4_MIN;
    copy.maximum = typeof copy.maximum === 'number' ? Math.min(copy.maximum, INT4_MAX) : INT4_MAX;
  }
  return copy;
}
