// The part of JSON Schema the site's own file formats use, for the page: so that one schema in schemas/ states the
// rules that both the page and the Python side (jsonschema) apply. A keyword this does not know is an error, not
// a rule quietly skipped (tests/js/ checks every schema the page imports).

const ANNOTATIONS = new Set(["$schema", "$id", "title", "description", "maxBytes"]);
const KEYWORDS = new Set(["type", "const", "enum", "required", "properties", "additionalProperties", "propertyNames", "pattern", "minLength"]);

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value; // "object", "string", "number", "boolean"
}

const matches = (type, value) => type === typeOf(value) || (type === "number" && typeOf(value) === "integer");

/** The first way `value` breaks `schema`, as {path: [keys], message}, or null. */
export function firstError(schema, value, path = []) {
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !KEYWORDS.has(keyword)) throw new Error(`schema.js does not know the keyword "${keyword}"`);
  }
  const fail = (message) => ({ path, message });
  if (schema.type !== undefined && ![schema.type].flat().some((type) => matches(type, value))) {
    return fail(`${JSON.stringify(value)?.slice(0, 40)} is not of type ${JSON.stringify(schema.type)}`);
  }
  if ("const" in schema && JSON.stringify(value) !== JSON.stringify(schema.const)) return fail(`${JSON.stringify(schema.const)} was expected`);
  if (schema.enum && !schema.enum.some((item) => JSON.stringify(item) === JSON.stringify(value))) return fail("is not one of the allowed values");
  if (typeof value === "string") {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) return fail("is too short");
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return fail(`does not match ${JSON.stringify(schema.pattern)}`);
  }
  if (typeOf(value) !== "object") return null;
  for (const key of schema.required ?? []) if (!Object.hasOwn(value, key)) return fail(`"${key}" is a required property`);
  for (const [key, item] of Object.entries(value)) {
    if (schema.propertyNames) {
      const error = firstError(schema.propertyNames, key, [...path, key]);
      if (error) return error;
    }
    const rule = schema.properties?.[key] ?? schema.additionalProperties;
    if (rule === false) return fail(`"${key}" is not allowed`);
    if (rule && rule !== true) {
      const error = firstError(rule, item, [...path, key]);
      if (error) return error;
    }
  }
  return null;
}
