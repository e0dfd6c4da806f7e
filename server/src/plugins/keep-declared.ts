/** The part of a JSON Schema (as zod writes it, `z.toJSONSchema`) that says which fields an answer may carry. */
export interface DeclaredShape {
  type?: string | string[];
  properties?: Record<string, DeclaredShape>;
  additionalProperties?: boolean | DeclaredShape;
  items?: DeclaredShape;
  anyOf?: DeclaredShape[];
  oneOf?: DeclaredShape[];
  required?: string[];
  $ref?: string;
  $defs?: Record<string, DeclaredShape>;
}

const typesOf = (shape: DeclaredShape) => [shape.type ?? []].flat();

/** The branch of a union the value is: an object one whose required fields it all has, else the closest by type. */
function branchFor(branches: DeclaredShape[], value: unknown): DeclaredShape {
  if (value === null) return branches.find((branch) => typesOf(branch).includes('null')) ?? branches[0]!;
  if (Array.isArray(value)) return branches.find((branch) => typesOf(branch).includes('array')) ?? branches[0]!;
  if (typeof value !== 'object') return branches.find((branch) => !typesOf(branch).includes('object')) ?? branches[0]!;
  const objects = branches.filter((branch) => typesOf(branch).includes('object') || branch.properties);
  return objects.find((branch) => (branch.required ?? []).every((key) => key in value)) ?? objects[0] ?? branches[0]!;
}

/**
 * The answer with only what its schema declares, values left as they are: what production sends when an answer
 * does not match its schema (a stored value from before a rule, a panel's odd figure), rather than a 500 — nothing
 * undeclared leaves the server either way. Tests never get here: there a mismatch fails (openapi.ts).
 */
export function keepDeclared(shape: DeclaredShape, value: unknown, root: DeclaredShape = shape): unknown {
  if (shape.$ref?.startsWith('#/$defs/')) return keepDeclared(root.$defs?.[shape.$ref.slice(8)] ?? {}, value, root);
  const branches = shape.anyOf ?? shape.oneOf;
  if (branches) return keepDeclared(branchFor(branches, value), value, root);
  if (Array.isArray(value)) return shape.items ? value.map((item) => keepDeclared(shape.items!, item, root)) : value;
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  // A shape that names no fields (free-form, `z.unknown()`) keeps the value whole.
  if (!shape.properties && (shape.additionalProperties === undefined || shape.additionalProperties === true)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const declared = shape.properties?.[key] ?? (typeof shape.additionalProperties === 'object' ? shape.additionalProperties : undefined);
    if (declared) kept[key] = keepDeclared(declared, field, root);
  }
  return kept;
}
