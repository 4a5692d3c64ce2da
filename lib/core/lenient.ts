import type { z } from "zod";
import { isWorkbenchError } from "./errors";
import type { ProjectFs } from "./project-fs";
import type { WarningSink } from "./warnings";

function unsetPath(target: unknown, pathParts: readonly PropertyKey[]): boolean {
  let cur: unknown = target;
  for (let i = 0; i < pathParts.length - 1; i++) {
    if (cur === null || typeof cur !== "object") return false;
    cur = (cur as Record<PropertyKey, unknown>)[pathParts[i] as PropertyKey];
  }
  const last = pathParts[pathParts.length - 1];
  if (cur === null || typeof cur !== "object" || last === undefined) return false;
  if (Array.isArray(cur) && typeof last === "number") {
    cur.splice(last, 1);
  } else {
    delete (cur as Record<PropertyKey, unknown>)[last];
  }
  return true;
}

/**
 * Parses with a schema whose fields are optional, dropping each field that has the
 * wrong shape (and warning about it by name) instead of rejecting the whole file:
 * real agent files drift, and one bad field must not hide the rest.
 */
export function parseLenient<S extends z.ZodType>(
  schema: S,
  value: unknown,
  relPath: string,
  warn: WarningSink,
): z.output<S> | null {
  const clone: unknown = structuredClone(value);
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = schema.safeParse(clone);
    if (res.success) return res.data;
    let removed = false;
    for (const issue of res.error.issues) {
      const field = issue.path.map(String).join(".");
      if (issue.path.length === 0) {
        warn({ relPath, code: "invalid_field", message: `${relPath}: ${issue.message}` });
        return null;
      }
      warn({ relPath, field, code: "invalid_field", message: `${relPath}: field "${field}" ignored: ${issue.message}` });
      removed = unsetPath(clone, issue.path) || removed;
    }
    if (!removed) return null;
  }
  return null;
}

/** JSON.parse with the file named in the error and the position given as line:column. */
export function parseJsonText(text: string, relPath: string, warn: WarningSink, code: "corrupt_json" | "corrupt_manifest" = "corrupt_json"): unknown | undefined {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const pos = /position (\d+)/.exec(msg);
    let where = "";
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split("\n").length;
      const col = Number(pos[1]) - before.lastIndexOf("\n");
      where = ` at line ${line}, column ${col}`;
    }
    warn({ relPath, code, message: `${relPath}: not valid JSON${where} (${msg.replace(/ in JSON at position \d+.*$/, "")}).` });
    return undefined;
  }
}

/** Reads and parses a JSON file leniently; warnings name the file and field. */
export async function readJsonFile<S extends z.ZodType>(
  pfs: ProjectFs,
  relPath: string,
  schema: S,
  warn: WarningSink,
  code: "corrupt_json" | "corrupt_manifest" = "corrupt_json",
): Promise<z.output<S> | null> {
  let text: string;
  try {
    text = await pfs.readText(relPath);
  } catch (e) {
    if (isWorkbenchError(e)) {
      if (e.code === "NOT_FOUND") return null;
      warn({ relPath, code: e.code === "TOO_LARGE" ? "too_large" : "unreadable", message: e.message });
      return null;
    }
    throw e;
  }
  const raw = parseJsonText(text, relPath, warn, code);
  if (raw === undefined) return null;
  return parseLenient(schema, raw, relPath, warn);
}
