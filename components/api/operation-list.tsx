import type { ReactNode } from "react";
import { Link2 } from "lucide-react";
import { ApiBrowser } from "@/components/api/api-browser";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from "@/lib/api/openapi";
import { operationGroups } from "@/lib/api/operation-index";

const METHOD_TONE: Record<string, BadgeTone> = { get: "accent", post: "ok", patch: "warn", put: "warn", delete: "danger" };

/** Nested schemas are shown this deep; the JSON document has the rest. */
const MAX_DEPTH = 4;

/** A JSON Schema's type in a few words: `string`, `integer ≥ 1`, `"md" | "json"`, `array of object`. */
function typeOf(s: JsonSchema): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map(typeOf).join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : typeof s.type === "string" ? s.type : "any";
  if (t === "array" && s.items) return `array of ${typeOf(s.items as JsonSchema)}`;
  const bounds = [typeof s.minimum === "number" ? `≥ ${s.minimum}` : null, typeof s.maximum === "number" ? `≤ ${s.maximum}` : null, typeof s.maxLength === "number" ? `≤ ${s.maxLength} chars` : null].filter(Boolean);
  return bounds.length ? `${t} (${bounds.join(", ")})` : t;
}

/** The object a schema describes, looking through arrays and nullable unions. */
function objectOf(s: JsonSchema): JsonSchema | null {
  if (s.type === "object" && s.properties) return s;
  if (s.type === "array" && s.items) return objectOf(s.items as JsonSchema);
  for (const alt of ((s.anyOf ?? s.oneOf) as JsonSchema[] | undefined) ?? []) {
    const o = objectOf(alt);
    if (o) return o;
  }
  return null;
}

function Field({ name, schema, required, depth }: { name: string; schema: JsonSchema; required: boolean; depth: number }) {
  const nested = depth < MAX_DEPTH ? objectOf(schema) : null;
  return (
    <li className="py-1">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <code className="font-mono text-xs font-medium">{name}</code>
        <span className="font-mono text-xs text-fg-muted">{typeOf(schema)}</span>
        {required ? null : <span className="text-xs text-fg-muted">optional</span>}
        {typeof schema.description === "string" ? <span className="text-xs">{schema.description}</span> : null}
      </div>
      {nested ? <Fields schema={nested} depth={depth + 1} /> : null}
    </li>
  );
}

/** The properties of an object schema, each with its type and description, nested objects indented. */
export function Fields({ schema, depth = 0 }: { schema: JsonSchema; depth?: number }) {
  const object = objectOf(schema);
  if (!object) return <p className="font-mono text-xs text-fg-muted">{typeOf(schema)}</p>;
  const required = new Set((object.required as string[] | undefined) ?? []);
  const props = Object.entries((object.properties ?? {}) as Record<string, JsonSchema>);
  if (props.length === 0) return <p className="text-xs text-fg-muted">an object{typeof object.description === "string" ? `: ${object.description}` : ""}</p>;
  return (
    <ul className={depth > 0 ? "ml-4 border-l border-border pl-3" : ""}>
      {props.map(([name, s]) => (
        <Field key={name} name={name} schema={s} required={required.has(name)} depth={depth} />
      ))}
    </ul>
  );
}

function Parameters({ params }: { params: OpenApiParameter[] }) {
  return (
    <ul>
      {params.map((p) => (
        <li key={`${p.in}:${p.name}`} className="flex flex-wrap items-baseline gap-x-2 py-1">
          <code className="font-mono text-xs font-medium">{p.name}</code>
          <span className="text-xs text-fg-muted">{p.in}</span>
          <span className="font-mono text-xs text-fg-muted">{typeOf(p.schema)}</span>
          {p.required ? null : <span className="text-xs text-fg-muted">optional</span>}
          {p.description ? <span className="text-xs">{p.description}</span> : null}
        </li>
      ))}
    </ul>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mt-3">
      <h4 className="mb-1 text-xs font-semibold uppercase tracking-wide text-fg-muted">{title}</h4>
      {children}
    </div>
  );
}

function Operation({ method, path, op }: { method: string; path: string; op: OpenApiOperation }) {
  const responses = Object.entries(op.responses);
  const success = responses.filter(([status]) => Number(status) < 400);
  const errors = responses.filter(([status]) => Number(status) >= 400);
  return (
    <section id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="scroll-mt-6 px-4 py-3" data-testid={`operation-${op.operationId}`}>
      <div className="flex items-start justify-between gap-2">
        <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-center gap-2">
          <Badge tone={METHOD_TONE[method] ?? "neutral"} className="font-mono">
            {method.toUpperCase()}
          </Badge>
          <code className="font-mono text-sm">{path}</code>
        </h3>
        {/* The operation's own address, to share: /api-docs#operationId. */}
        <a href={`#${op.operationId}`} className="shrink-0 rounded p-1 text-fg-muted hover:bg-muted hover:text-accent" aria-label={`Link to ${op.operationId}`} title={`Link to this operation (#${op.operationId})`}>
          <Link2 aria-hidden className="size-4" />
        </a>
      </div>
      <p className="mt-1 text-sm">{op.summary}</p>
      {op.description ? <p className="mt-1 text-xs text-fg-muted">{op.description}</p> : null}
      <p className="mt-1 text-xs text-fg-muted">Who may call it: {op["x-access"]}.</p>
      {op.parameters.length > 0 ? (
        <Section title="Parameters">
          <Parameters params={op.parameters} />
        </Section>
      ) : null}
      {op.requestBody ? (
        <Section title="Body (application/json)">
          <Fields schema={op.requestBody.content["application/json"].schema} />
        </Section>
      ) : null}
      {success.map(([status, r]) => (
        <Section key={status} title={`Response ${status}: ${r.description}`}>
          {Object.entries(r.content ?? {}).map(([type, c]) => (
            <div key={type} className="mt-1">
              <p className="font-mono text-xs text-fg-muted">{type}</p>
              {type === "application/json" ? <Fields schema={c.schema} /> : typeof c.schema.description === "string" ? <p className="text-xs">{c.schema.description}</p> : null}
            </div>
          ))}
          {r.headers ? (
            <ul className="mt-1">
              {Object.entries(r.headers).map(([name, h]) => (
                <li key={name} className="text-xs">
                  <code className="font-mono">{name}</code>: {h.description}
                </li>
              ))}
            </ul>
          ) : null}
        </Section>
      ))}
      {errors.length > 0 ? (
        <Section title="Errors">
          <p className="text-xs text-fg-muted">{errors.map(([status, r]) => `${status} ${r.description}`).join(" · ")}</p>
        </Section>
      ) : null}
    </section>
  );
}

/**
 * Every operation of the document, grouped by tag, as the document describes it, with a
 * contents column and a filter (ApiBrowser) to find one among the many.
 */
export function OperationList({ doc, groups }: { doc: OpenApiDocument; groups: { tag: string; title: string }[] }) {
  const sections: Record<string, ReactNode> = {};
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) sections[op.operationId] = <Operation method={method} path={path} op={op} />;
  }
  return <ApiBrowser groups={operationGroups(doc, groups)} sections={sections} />;
}
