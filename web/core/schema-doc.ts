/**
 * The result document's field reference, read from the schema itself: every path, its type and
 * limits as valibot checks them, and the description attached to it with `v.description` in
 * schema.ts. The package README's "Result fields" section is this module's output, so the
 * reference cannot drift from what `validateResult` accepts; a field without a description is
 * an error here, not a gap in the docs.
 * @module
 */
import type * as v from 'valibot';

export interface FieldDoc {
  /** `cases[].summary.median`: `[]` marks an array's items. */
  path: string;
  type: string;
  optional: boolean;
  description: string | null;
}

type AnySchema = v.GenericSchema & {
  type: string;
  pipe?: readonly { kind: string; type: string; requirement?: unknown; description?: string }[];
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  item?: AnySchema;
  options?: readonly (string | AnySchema)[];
  value?: AnySchema;
};

/** Every action of a schema's pipes, the innermost first (a pipe of a pipe keeps both). */
function actions(s: AnySchema): NonNullable<AnySchema['pipe']> {
  if (!s.pipe) return [];
  const [root, ...rest] = s.pipe as unknown as [AnySchema, ...NonNullable<AnySchema['pipe']>];
  return [...(root && root !== s && 'kind' in root && root.kind === 'schema' ? actions(root) : []), ...rest];
}

function describe(s: AnySchema): string | null {
  const d = actions(s).filter((a) => a.type === 'description');
  return d.length ? d[d.length - 1]!.description! : null;
}

/** optional / nullable wrappers peeled off, with what they said. */
function unwrap(s: AnySchema): { inner: AnySchema; optional: boolean; nullable: boolean; description: string | null } {
  let inner = s;
  let optional = false;
  let nullable = false;
  let description = describe(s);
  while (inner.type === 'optional' || inner.type === 'nullable' || inner.type === 'nullish') {
    if (inner.type !== 'nullable') optional = true;
    if (inner.type !== 'optional') nullable = true;
    inner = inner.wrapped!;
    description ??= describe(inner);
  }
  return { inner, optional, nullable, description };
}

const MAX_LISTED = 6;

function typeText(s: AnySchema): string {
  const a = actions(s);
  const req = (type: string) => a.find((x) => x.type === type)?.requirement;
  const limits: string[] = [];
  if (a.some((x) => x.type === 'integer')) limits.push('integer');
  if (req('min_value') !== undefined) limits.push(`≥ ${req('min_value')}`);
  if (req('max_value') !== undefined) limits.push(`≤ ${req('max_value')}`);
  if (req('min_length') !== undefined) limits.push(`at least ${req('min_length')}`);
  if (req('max_length') !== undefined) limits.push(`at most ${req('max_length')}`);
  if (req('length') !== undefined) limits.push(`exactly ${req('length')}`);
  if (a.some((x) => x.type === 'uuid')) limits.push('UUID');
  if (a.some((x) => x.type === 'iso_timestamp')) limits.push('ISO 8601 time');
  const withLimits = (t: string) => (limits.length ? `${t} (${limits.join(', ')})` : t);
  switch (s.type) {
    case 'picklist': {
      const o = s.options as readonly string[];
      return o.length <= MAX_LISTED
        ? o.map((x) => `\`${x}\``).join(' | ')
        : `one of ${o.length} ids (${o
            .slice(0, 3)
            .map((x) => `\`${x}\``)
            .join(', ')}, …)`;
    }
    case 'union':
      return (s.options as AnySchema[]).map((o) => typeText(unwrap(o).inner)).join(' or ');
    case 'array': {
      const item = unwrap(s.item!).inner;
      return withLimits(`${item.type === 'object' ? 'object' : typeText(item)}[]`);
    }
    case 'record':
      return withLimits(`map of name → ${typeText(unwrap(s.value!).inner)}`);
    case 'string':
      return a.some((x) => x.type === 'regex') ? withLimits('string, pattern-checked') : withLimits('string');
    default:
      return withLimits(s.type);
  }
}

/** Every field of an object schema, depth first, in declaration order. */
export function fieldDocs(schema: v.GenericSchema, prefix = ''): FieldDoc[] {
  const s = unwrap(schema as AnySchema).inner;
  const out: FieldDoc[] = [];
  for (const [name, field] of Object.entries(s.entries ?? {})) {
    const { inner, optional, nullable, description } = unwrap(field);
    const path = `${prefix}${name}`;
    out.push({ path, type: `${typeText(inner)}${nullable ? ' or null' : ''}`, optional, description });
    if (inner.type === 'object') out.push(...fieldDocs(inner, `${path}.`));
    if (inner.type === 'array') {
      const item = unwrap(inner.item!).inner;
      if (item.type === 'object') out.push(...fieldDocs(item, `${path}[].`));
    }
  }
  return out;
}

/** The reference as Markdown; throws naming every field that has no description. */
export function fieldsMarkdown(schema: v.GenericSchema): string {
  const docs = fieldDocs(schema);
  const missing = docs.filter((d) => !d.description).map((d) => d.path);
  if (missing.length) throw new Error(`fields without a description (add v.description in schema.ts): ${missing.join(', ')}`);
  const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| field | type | what it holds |',
    '|---|---|---|',
    ...docs.map((d) => `| \`${d.path}\`${d.optional ? ' (optional)' : ''} | ${cell(d.type)} | ${cell(d.description!)} |`),
  ].join('\n');
}
