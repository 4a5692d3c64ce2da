import type { FindingFactory } from "./findings";
import type { Outline } from "./outline";
import { filesTouched } from "./query";
import type { PacketFinding } from "./types";

/** `path` or path, then "(Name, Other.name)" right after it. */
const ENTRY_RE = /^(`[^`]+`|[^\s(]+)[ \t]*\(((?:[^()]|\(\))*)\)/;
/** One annotation name: a type or function, possibly qualified or backticked (`Module.method`, `fn()`). */
const NAME_RE = /^`?[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(\))?(?:<[^>]*>)?`?$/;

/**
 * Every Files Touched entry carries its (TypeName, function) annotation: the names are what
 * the receiver searches for once the file has moved. One or more names are accepted; a
 * file may hold only functions. WARN, not BLOCK: the seed lists it under Self-Validation,
 * a check to fix, and neither its HARD-GATE nor its smell-test table gates on it (the
 * reference's own bug brief lists a test file with no annotation).
 */
export function filesTouchedFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const out: PacketFinding[] = [];
  for (const item of filesTouched(o)) {
    const m = ENTRY_RE.exec(item.text);
    const names = m ? m[2]!.split(",").map((n) => n.trim()) : [];
    if (names.length && names.every((n) => NAME_RE.test(n))) continue;
    out.push(
      at({
        rule: "files-touched-annotation",
        tier: "WARN",
        message: 'Files Touched entry without its (TypeName, function) annotation: write it as "- `path` (Type, fn) — hint" so the receiver can find the code after a rename.',
        offset: item.start,
        length: item.text.length,
      }),
    );
  }
  return out;
}
