import { parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import type { z } from "zod";
import { isWorkbenchError } from "./errors";
import { MAX_NESTING } from "./fs/limits";
import { jsonNestingDepth } from "./fs/nesting";
import { refusalOf } from "./fs/refusal";
import type { ProjectFs } from "./project-fs";
import type { WarningSink } from "./warnings";

/**
 * Removes the value at a path. When it is already absent (a missing required field),
 * the object that needs it is removed instead, so each pass makes progress.
 */
function unsetPath(target: unknown, pathParts: readonly PropertyKey[]): boolean {
  if (pathParts.length === 0) return false;
  let cur: unknown = target;
  for (let i = 0; i < pathParts.length - 1; i++) {
    if (cur === null || typeof cur !== "object") return unsetPath(target, pathParts.slice(0, i));
    cur = (cur as Record<PropertyKey, unknown>)[pathParts[i] as PropertyKey];
  }
  const last = pathParts[pathParts.length - 1]!;
  if (cur === null || typeof cur !== "object" || !(last in (cur as object))) return unsetPath(target, pathParts.slice(0, -1));
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
export function parseLenient<S extends z.ZodType>(schema: S, value: unknown, relPath: string, warn: WarningSink): z.output<S> | null {
  const clone: unknown = structuredClone(value);
  for (let attempt = 0; attempt < 200; attempt++) {
    const res = schema.safeParse(clone);
    if (res.success) return res.data;
    let removed = false;
    // One issue per pass: removing a field can shift array indexes of later issues.
    const issue = res.error.issues[0]!;
    const field = issue.path.map(String).join(".");
    if (issue.path.length === 0) {
      warn({ relPath, code: "invalid_field", message: `${relPath}: ${issue.message}` });
      return null;
    }
    warn({ relPath, field, code: "invalid_field", message: `${relPath}: field "${field}" ignored: ${issue.message}` });
    removed = unsetPath(clone, issue.path);
    if (!removed) return null;
  }
  return null;
}

/** JSON.parse with the file named in the error and the first fault's line and column. */
export function parseJsonText(text: string, relPath: string, warn: WarningSink, code: "corrupt_json" | "corrupt_manifest" = "corrupt_json"): unknown | undefined {
  const body = text.replace(/^\uFEFF/, "");
  // Parsed values are cloned, validated and rendered by recursive code: bound the depth first.
  if (jsonNestingDepth(body, MAX_NESTING) > MAX_NESTING) {
    warn({ relPath, code: "too_deep", message: `${relPath}: nested more than ${MAX_NESTING} levels deep; not read.` });
    return undefined;
  }
  try {
    return JSON.parse(body);
  } catch {
    // JSON.parse does not say where on every Node version; jsonc-parser does.
    const errors: ParseError[] = [];
    parseTree(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    let where = "";
    let what = "syntax error";
    if (first) {
      const before = body.slice(0, first.offset);
      const line = before.split("\n").length;
      const col = first.offset - before.lastIndexOf("\n");
      where = ` at line ${line}, column ${col}`;
      what = printParseErrorCode(first.error)
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .toLowerCase();
    } else if (body.trim() === "") {
      what = "the file is empty";
    }
    warn({ relPath, code, message: `${relPath}: not valid JSON${where} (${what}).` });
    return undefined;
  }
}

/** Reads and parses a JSON file leniently; warnings name the file and field. */
export async function readJsonFile<S extends z.ZodType>(pfs: ProjectFs, relPath: string, schema: S, warn: WarningSink, code: "corrupt_json" | "corrupt_manifest" = "corrupt_json"): Promise<z.output<S> | null> {
  let text: string;
  try {
    text = await pfs.readText(relPath);
  } catch (e) {
    if (isWorkbenchError(e)) {
      if (e.code === "NOT_FOUND") return null;
      warn({ relPath, code: refusalOf(e) ?? (e.code === "TOO_LARGE" ? "too_large" : "unreadable"), message: e.message });
      return null;
    }
    throw e;
  }
  const raw = parseJsonText(text, relPath, warn, code);
  if (raw === undefined) return null;
  return parseLenient(schema, raw, relPath, warn);
}
