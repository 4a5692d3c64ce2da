/**
 * Writes a synthetic, deterministic project in the load-context (nexus) layout for the
 * benchmarks: work sessions, brainstorms, proposals, a requirements KB, product knowledge
 * and a git history. Same options and seed → same bytes and the same commit hashes.
 *
 *   tsx bench/generate-project.ts <dir> [--sessions N] [--documents N] [--tickets N] [--seed N]
 *
 * Formats follow /work/shared/spec/FORMATS.md §2 and examples/sample-project.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { mulberry32 } from "../tests/helpers/prng";
import { OUT_DIR } from "./report";

export interface GenerateOptions {
  /** Work sessions under .claude/work (brainstorms are ~5% of this on top, proposals ~2%). */
  sessions?: number;
  /** Product-knowledge markdown files under knowledge/product. */
  documents?: number;
  /** Tickets in knowledge/requirements/index.json (each with a metadata.json folder). */
  tickets?: number;
  /** git commits (the first one holds every file; the rest are small). */
  commits?: number;
  /** feature/* branches pointing at commits of the history. */
  branches?: number;
  seed?: number;
  /** Skip `git init` and the history. */
  git?: boolean;
}

export interface GenerateResult {
  dir: string;
  sessions: number;
  brainstorms: number;
  proposals: number;
  tickets: number;
  documents: number;
  commits: number;
  branches: number;
  files: number;
  /** Work session ids, in generation order (the benchmarks edit some of them). */
  workIds: string[];
  /** Product document paths relative to the project root. */
  documentPaths: string[];
}

/** Bump when the output changes, so cached projects are regenerated. */
export const GENERATOR_VERSION = 4;

// ---------------------------------------------------------------------------
// Seeded PRNG (mulberry32) and helpers

export type Rng = () => number;

export { mulberry32 };

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  const v = xs[Math.floor(rng() * xs.length)];
  if (v === undefined) throw new Error("pick from an empty list");
  return v;
}

function pickN<T>(rng: Rng, xs: readonly T[], n: number): T[] {
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < n && pool.length) out.push(pool.splice(Math.floor(rng() * pool.length), 1)[0] as T);
  return out;
}

function weighted<T extends string>(rng: Rng, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let r = rng() * total;
  for (const [v, w] of table) {
    r -= w;
    if (r < 0) return v;
  }
  return table[table.length - 1]![0];
}

const START = Date.UTC(2025, 0, 1);
const END = Date.UTC(2026, 11, 31, 23, 59);
const DAY = 86_400_000;

/** ISO-8601 without milliseconds, the way the skills write timestamps. */
function iso(ms: number): string {
  return new Date(Math.min(ms, END)).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function dateOnly(ms: number): string {
  return iso(ms).slice(0, 10);
}

function randomTime(rng: Rng, from = START, to = END): number {
  // Whole minutes, like hand-written and hook-written timestamps.
  return from + Math.floor((rng() * (to - from)) / 60_000) * 60_000;
}

// ---------------------------------------------------------------------------
// Vocabulary

const NOUNS = [
  "orders",
  "invoices",
  "users",
  "export",
  "import",
  "authentication",
  "sessions",
  "notifications",
  "search",
  "billing",
  "payments",
  "webhooks",
  "catalog",
  "inventory",
  "shipping",
  "reports",
  "audit",
  "tenants",
  "sso",
  "rate-limits",
  "feature-flags",
  "checkout",
  "refunds",
  "discounts",
  "tax",
  "emails",
  "permissions",
  "roles",
  "dashboard",
  "analytics",
  "onboarding",
  "api-keys",
  "uploads",
  "pdf",
  "csv",
  "queue",
  "cache",
  "retention",
] as const;
const VERBS = ["Add", "Improve", "Refactor", "Fix", "Migrate", "Support", "Harden", "Speed up", "Redesign", "Split", "Document", "Automate"] as const;
const ADJECTIVES = ["async", "bulk", "per-tenant", "scheduled", "incremental", "paginated", "signed", "versioned", "localized", "audited", "cached", "streaming"] as const;
const COMPONENTS = [
  "OrderRepository",
  "OrderController",
  "InvoiceController",
  "SessionService",
  "AuthController",
  "UserExporter",
  "ExportJob",
  "NotificationService",
  "WebhookDispatcher",
  "PaymentGateway",
  "CatalogIndexer",
  "TaxCalculator",
  "AuditLog",
  "RateLimiter",
  "TenantResolver",
  "ImportWorker",
  "PdfRenderer",
  "SearchIndex",
  "FeatureFlags",
  "ApiKeyStore",
] as const;
const ACTORS = ["Customer (storefront)", "Tenant admin", "Support agent (admin portal)", "Finance team", "Security team", "Partner integration", "Warehouse operator"] as const;
const CATEGORIES = ["security", "billing", "orders", "integrations", "operations", "reporting", "platform", "customer-experience"] as const;
const WORDS = (
  "the service keeps each tenant isolated and every request is checked against the role of the caller before any data " +
  "leaves the database rows are paged by primary key batches of five hundred are written in one transaction retries use " +
  "exponential backoff with jitter failures land in a dead letter queue that support can replay the admin portal shows " +
  "progress and a download link files expire after seven days personal data is redacted from logs metrics are exported " +
  "per endpoint latency budgets are reviewed each quarter the migration runs online without locking the table"
).split(" ");
const FILE_DIRS = ["src/orders", "src/export", "src/auth", "src/api", "src/billing", "src/notifications", "src/search", "admin/src/pages", "src/db"] as const;
/** Small (≤10 line) agent summaries; every session has 1–3 of them. */
const AGENT_SUMMARIES = ["archaeologist-summary.md", "archivist-summary.md", "product-expert-summary.md", "qa-code-reviewer-summary.md", "notes.md"] as const;
/** Full outputs a few sessions keep next to their summaries. */
const AGENT_FULL = ["archaeologist.md", "qa-code-reviewer.md", "discovery.json"] as const;
const TOOLS = ["Edit", "Write", "MultiEdit", "Task", "NotebookEdit"] as const;

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(rng: Rng, min = 8, max = 18): string {
  const n = int(rng, min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(pick(rng, WORDS));
  return cap(words.join(" ")) + ".";
}

function paragraph(rng: Rng, sentences = int(rng, 2, 4)): string {
  return Array.from({ length: sentences }, () => sentence(rng)).join(" ");
}

function title(rng: Rng): string {
  const noun = pick(rng, NOUNS).replace(/-/g, " ");
  const other = pick(rng, NOUNS).replace(/-/g, " ");
  return `${pick(rng, VERBS)} ${pick(rng, ADJECTIVES)} ${noun} for ${other}`;
}

function sourceFile(rng: Rng): string {
  return `${pick(rng, FILE_DIRS)}/${pick(rng, COMPONENTS)}.ts`;
}

// ---------------------------------------------------------------------------
// Writing

class Writer {
  files = 0;
  constructor(readonly root: string) {}
  write(rel: string, content: string): void {
    const abs = path.join(this.root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    this.files++;
  }
  json(rel: string, value: unknown): void {
    this.write(rel, JSON.stringify(value, null, 2) + "\n");
  }
}

function manifest(artifactType: string, lastUpdated: string, items: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { version: "1.0", last_updated: lastUpdated, artifact_type: artifactType, total_items: items.length, items, ...extra };
}

const CONFIGURATION_YML = `# =============================================================================
# Claude Skills — Project Configuration (synthetic benchmark project)
# =============================================================================

execution_mode:
  default: team
  overrides:
    troubleshoot: subagent

storage:
  locations:
    local:
      type: directory
      path: .claude
    knowledge:
      type: directory
      path: knowledge

  artifacts:
    requirements:      { location: knowledge, subdir: requirements }
    product-knowledge: { location: knowledge, subdir: product }
    brainstorms:       { location: local, subdir: brainstorm }
    work:              { location: local, subdir: work }
    refactoring:       { location: local, subdir: work/refactoring-sessions }
    proposals:         { location: local, subdir: proposals }

project:
  ecosystem: node

requirements:
  auto_search: true
  auto_archive: true
  auto_load_threshold: 0.9
  max_suggestions: 3
  archive_on_pr: true

hooks:
  auto_context:
    enabled: true
    milestone_tools: [Edit, Write, MultiEdit, Task, NotebookEdit]
    throttle_seconds: 300
`;

interface Session {
  id: string;
  title: string;
  type: "implementation" | "requirements" | "epic";
  status: "in_progress" | "completed";
  created: number;
  updated: number;
  tags: string[];
  promotedFrom: string | null;
}

function updatesFor(rng: Rng, s: Session): { entries: { timestamp: string; note: string; auto?: true }[]; lastAuto: string | null } {
  const n = int(rng, 0, 6);
  const times = Array.from({ length: n }, () => randomTime(rng, s.created, s.updated)).sort((a, b) => a - b);
  let lastAuto: string | null = null;
  const entries = times.map((t) => {
    if (rng() < 0.4) {
      lastAuto = iso(t);
      return { timestamp: iso(t), note: `[auto] ${pick(rng, TOOLS)}: ${sourceFile(rng)}`, auto: true as const };
    }
    return { timestamp: iso(t), note: sentence(rng, 10, 24) };
  });
  return { entries, lastAuto };
}

function phaseStatus(done: boolean, started: boolean): string {
  return done ? "completed" : started ? "in_progress" : "pending";
}

function workState(rng: Rng, s: Session): Record<string, unknown> {
  const { entries, lastAuto } = updatesFor(rng, s);
  const done = s.status === "completed";
  const base = {
    schema_version: 1,
    identifier: s.id,
    type: s.type,
    status: s.status,
    title: s.title,
    created_at: iso(s.created),
    updated_at: iso(s.updated),
  };
  const branches = { base: "origin/main", feature: `feature/${s.id}`, remote_pushed: done || rng() < 0.5 };
  const tail = { ...(lastAuto ? { auto_context_last_at: lastAuto } : {}), updates: entries };
  if (s.type === "requirements") {
    const stageNames = ["setup", "discovery", "deep_dive", "synthesis", "resolve_flags", "re_synthesis", "architecture_validation", "skeptic_validation"];
    const reached = done ? stageNames.length : int(rng, 1, stageNames.length - 1);
    const stageNo = [1, 2, 3, 4, 4.5, 4.6, 4.7, 4.8];
    const stages: Record<string, unknown> = {};
    stageNames.forEach((name, i) => {
      stages[name] = {
        stage: stageNo[i],
        status: phaseStatus(i < reached, i === reached),
        ...(name === "discovery" ? { agent: "context-builder" } : {}),
        ...(name === "deep_dive" ? { agents_to_run: pickN(rng, ["archaeologist", "archivist", "product-expert", "security-requirements"], 2) } : {}),
        ...(name === "synthesis" ? { agent: "business-analyst" } : {}),
        ...(name === "resolve_flags" ? { conditional: true } : {}),
      };
    });
    return {
      ...base,
      execution_mode: pick(rng, ["team", "subagent"]),
      branches,
      requirements: {
        original: paragraph(rng, 2),
        refined: {
          scope: Array.from({ length: int(rng, 2, 5) }, () => sentence(rng)),
          actors: pickN(rng, ACTORS, int(rng, 1, 3)),
          constraints: Array.from({ length: int(rng, 1, 3) }, () => sentence(rng)),
          acceptance_criteria: Array.from({ length: int(rng, 2, 5) }, () => sentence(rng)),
          dependencies: pickN(rng, COMPONENTS, int(rng, 0, 2)),
        },
      },
      brainstorm: { promoted_from: s.promotedFrom, has_context: s.promotedFrom !== null },
      stages,
      team: { name: `req-${s.id.toLowerCase()}`, created: iso(s.created) },
      outputs: { technical_requirements: done ? "technical-requirements.md" : null, jira_ticket: done ? s.id : null },
      ...tail,
    };
  }
  if (s.type === "implementation") {
    const total = int(rng, 1, 6);
    const completed = done ? total : int(rng, 0, total - 1);
    const chunks = Array.from({ length: total }, (_, i) => ({
      id: i + 1,
      description: sentence(rng, 8, 16),
      files: Array.from({ length: int(rng, 1, 3) }, () => sourceFile(rng)),
      status: i < completed ? "completed" : "pending",
      ...(i < completed
        ? {
            commit: Math.floor(rng() * 0xfffffff)
              .toString(16)
              .padStart(7, "0"),
          }
        : {}),
    }));
    const files = [...new Set(chunks.filter((c) => c.status === "completed").flatMap((c) => c.files))];
    return {
      ...base,
      started_at: iso(s.created + int(rng, 0, 2) * DAY),
      completed_at: done ? iso(s.updated) : null,
      execution_mode: pick(rng, ["team", "subagent"]),
      branches,
      requirements: { original: paragraph(rng, 2), branches },
      brainstorm: { promoted_from: s.promotedFrom, has_context: s.promotedFrom !== null },
      phases: {
        plan: { status: "completed" },
        implement: { status: phaseStatus(done, true), chunks_completed: completed, chunks_total: total },
        qa: { status: phaseStatus(done, false) },
        qa_gate: {
          status: phaseStatus(done, false),
          findings: {
            critical: { total: 0, resolved: 0, unresolved: 0 },
            important: { total: int(rng, 0, 3) },
            minor: { total: int(rng, 0, 5) },
          },
          auto_fixes_applied: 0,
          auto_fixes_failed: 0,
          gate_result: done ? "pass" : null,
          report_path: null,
        },
        pr: { status: phaseStatus(done, false) },
      },
      plan: { chunks },
      implemented_files: files,
      commits: chunks.flatMap((c) => ("commit" in c && c.commit ? [c.commit] : [])),
      pr: done ? { number: int(rng, 1, 4000), url: null } : null,
      ...tail,
    };
  }
  // epic
  const nTickets = int(rng, 2, 6);
  return {
    ...base,
    description: paragraph(rng, 2),
    tickets: Array.from({ length: nTickets }, (_, i) => ({
      slug: `${s.id}-${String(i + 1).padStart(3, "0")}`,
      title: title(rng),
      type: pick(rng, ["backend", "frontend", "infra"]),
      estimate: pick(rng, ["small", "medium", "large"]),
      status: done ? "completed" : pick(rng, ["pending", "in_progress", "completed"]),
      blocked_by: [],
      blocks: [],
      spec_file: null,
      implementation_status: null,
    })),
    ...tail,
  };
}

function agentOutput(rng: Rng, s: Session, name: string): string {
  if (name === "discovery.json") {
    return JSON.stringify({ identifier: s.id, files: Array.from({ length: int(rng, 2, 6) }, () => sourceFile(rng)), components: pickN(rng, COMPONENTS, 3) }, null, 2) + "\n";
  }
  const full = !name.endsWith("-summary.md") && name !== "notes.md";
  const lines = [`# ${cap(name.replace(/(-summary)?\.md$/, "").replace(/-/g, " "))}: ${s.id}`];
  const n = full ? int(rng, 12, 30) : int(rng, 3, 8);
  for (let i = 0; i < n; i++) lines.push(`- ${sentence(rng, 6, 14)}`);
  const text = lines.join("\n") + "\n";
  if (name === "archivist-summary.md" || name === "product-expert-summary.md") {
    const src = `context/${name}`;
    return `<!-- UNTRUSTED-CONTENT:START ${src} -->\n${text}<!-- UNTRUSTED-CONTENT:END ${src} -->\n`;
  }
  return text;
}

function sessionId(rng: Rng, i: number): string {
  const style = rng();
  if (style < 0.45) return `PROJ-${1000 + i}`;
  if (style < 0.8) return `JIRA-${10000 + i}`;
  return `${pick(rng, NOUNS)}-${pick(rng, NOUNS)}-${i}`;
}

// ---------------------------------------------------------------------------

export function generateProject(dir: string, opts: GenerateOptions = {}): GenerateResult {
  const sessions = opts.sessions ?? 5000;
  const documents = opts.documents ?? 5000;
  const nTickets = opts.tickets ?? 500;
  const nCommits = Math.max(1, opts.commits ?? 50);
  const nBranches = opts.branches ?? 20;
  const seed = opts.seed ?? 1;
  const rng = mulberry32(seed);
  const root = path.resolve(dir);
  if (fs.existsSync(root) && fs.readdirSync(root).length > 0) throw new Error(`${root} exists and is not empty`);
  fs.mkdirSync(root, { recursive: true });
  const w = new Writer(root);

  w.write(".claude/configuration.yml", CONFIGURATION_YML);
  w.write("README.md", `# Synthetic benchmark project\n\nGenerated by bench/generate-project.ts (seed ${seed}, v${GENERATOR_VERSION}).\n`);
  w.write(".gitignore", "node_modules/\n");
  w.json("package.json", { name: "bench-project", private: true, version: "0.0.0" });

  // --- Work sessions
  const all: Session[] = [];
  for (let i = 0; i < sessions; i++) {
    const created = randomTime(rng);
    const updated = Math.min(END, created + Math.floor(rng() * 30 * DAY));
    all.push({
      id: sessionId(rng, i),
      title: title(rng),
      type: weighted(rng, [
        ["implementation", 50],
        ["requirements", 40],
        ["epic", 10],
      ] as const),
      status: rng() < 0.65 ? "completed" : "in_progress",
      created,
      updated,
      tags: pickN(rng, NOUNS, int(rng, 1, 4)),
      promotedFrom: null,
    });
  }

  // --- Brainstorms (~5% of sessions); a third promoted to a work session
  const nBrainstorms = Math.round(sessions * 0.05);
  const brainstormItems: unknown[] = [];
  for (let i = 0; i < nBrainstorms; i++) {
    const slug = `${pick(rng, NOUNS)}-${pick(rng, ["approaches", "ideas", "options", "revamp", "exploration"])}-${i}`;
    const bTitle = title(rng);
    const created = randomTime(rng);
    const updated = Math.min(END, created + Math.floor(rng() * 10 * DAY));
    const target = all.length && rng() < 0.33 ? pick(rng, all) : undefined;
    const promoted = target !== undefined && target.promotedFrom === null && target.type !== "epic";
    if (promoted) target.promotedFrom = slug;
    const status = promoted ? "promoted" : rng() < 0.5 ? "completed" : "in_progress";
    const phaseNames = ["exploration", "approaches", "refinement", "quality_guard", "work_breakdown"];
    const reached = status === "in_progress" ? int(rng, 0, 4) : 5;
    const approaches = int(rng, 2, 4);
    const selected = reached >= 2 ? `Approach ${int(rng, 1, approaches)}: ${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}` : null;
    const tags = pickN(rng, NOUNS, int(rng, 1, 4));
    w.json(`.claude/brainstorm/${slug}/state.json`, {
      schema_version: 1,
      identifier: slug,
      type: "brainstorm",
      title: bTitle,
      status,
      ...(promoted ? { promoted_to: target.id } : {}),
      created_at: iso(created),
      updated_at: iso(updated),
      selected_approach: selected,
      phases: Object.fromEntries(phaseNames.map((p, k) => [p, { status: phaseStatus(k < reached, k === reached) }])),
      outputs: {
        exploration: "context/exploration.md",
        business_context: "context/business-context.md",
        approaches: "context/approaches.md",
        architecture_validation: "context/architecture-validation.md",
        implementation_picture: "implementation-picture.md",
        work_breakdown: "work-breakdown.md",
        summary: "brainstorm-summary.md",
      },
      updates: [{ timestamp: iso(updated), note: sentence(rng) }],
    });
    w.write(`.claude/brainstorm/${slug}/context/exploration.md`, `# Exploration: ${bTitle}\n\n${paragraph(rng)}\n`);
    const appr = Array.from({ length: approaches }, (_, k) => `## Approach ${k + 1}: ${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)}\n\n${paragraph(rng, 2)}\n`);
    w.write(`.claude/brainstorm/${slug}/context/approaches.md`, `# Approaches\n\n${appr.join("\n")}\n## Key decisions\n\n${Array.from({ length: int(rng, 1, 4) }, () => `- ${sentence(rng)}`).join("\n")}\n`);
    if (reached >= 4) w.write(`.claude/brainstorm/${slug}/implementation-picture.md`, `# Implementation picture\n\n${paragraph(rng)}\n`);
    brainstormItems.push({
      slug,
      title: bTitle,
      status,
      created_at: iso(created),
      updated_at: iso(updated),
      current_phase: phaseNames[Math.min(reached, 4)],
      selected_approach: selected,
      alternatives_count: approaches,
      promoted_to: promoted ? target.id : null,
      tags,
      path: `${slug}/`,
    });
  }
  w.json(".claude/brainstorm/manifest.json", manifest("brainstorms", iso(END - 30 * DAY), brainstormItems));

  // --- Write the work sessions (after brainstorms, so promoted_from is known)
  const workItems: unknown[] = [];
  for (const s of all) {
    const state = workState(rng, s);
    w.json(`.claude/work/${s.id}/state.json`, state);
    const outputs = [...pickN(rng, AGENT_SUMMARIES, int(rng, 1, 3)), ...(rng() < 0.1 ? [pick(rng, AGENT_FULL)] : [])];
    for (const name of outputs) w.write(`.claude/work/${s.id}/context/${name}`, agentOutput(rng, s, name));
    if (s.type === "requirements" && s.status === "completed") {
      w.write(`.claude/work/${s.id}/technical-requirements.md`, `# Technical requirements: ${s.title}\n\n${paragraph(rng, 4)}\n`);
    }
    const impl = state["phases"] as { implement?: { chunks_completed?: number; chunks_total?: number } } | undefined;
    workItems.push({
      identifier: s.id,
      title: s.title,
      type: s.type,
      status: s.status,
      created_at: iso(s.created),
      updated_at: iso(s.updated),
      current_phase: s.type === "implementation" ? (s.status === "completed" ? "complete" : "implement") : s.type === "epic" ? "wave-1" : s.status === "completed" ? "complete" : "deep_dive",
      progress: impl?.implement ? `${impl.implement.chunks_completed}/${impl.implement.chunks_total} chunks` : null,
      branch: s.type === "epic" ? null : `feature/${s.id}`,
      tags: s.tags,
      path: `${s.id}/`,
    });
  }
  w.json(".claude/work/manifest.json", manifest("work", iso(END - 7 * DAY), workItems));

  // --- Proposals (~2% of sessions): half share a slug-style work id, folders and single files
  const nProposals = Math.round(sessions * 0.02);
  const slugIds = all.filter((s) => !/^(PROJ|JIRA)-/.test(s.id)).map((s) => s.id);
  const usedNames = new Set<string>();
  const proposalItems: unknown[] = [];
  for (let i = 0; i < nProposals; i++) {
    let name = rng() < 0.5 && slugIds.length ? pick(rng, slugIds) : `${pick(rng, NOUNS)}-proposal-${i}`;
    if (usedNames.has(name)) name = `${name}-p${i}`;
    usedNames.add(name);
    const pTitle = title(rng);
    const status = pick(rng, ["draft", "final", "implemented"] as const);
    const created = randomTime(rng);
    const updated = Math.min(END, created + Math.floor(rng() * 14 * DAY));
    const iterations = int(rng, 1, 3);
    const body = (v: number) =>
      `# ${pTitle}${v > 1 ? ` (v${v})` : ""}\n\nStatus: ${cap(status)}\n\n## Summary\n\n${paragraph(rng)}\n\n## Key points\n\n${Array.from({ length: int(rng, 2, 5) }, () => `- ${sentence(rng)}`).join("\n")}\n`;
    const asFile = rng() < 0.3;
    if (asFile) {
      w.write(`.claude/proposals/${name}.md`, body(1));
    } else {
      for (let v = 1; v <= iterations; v++) w.write(`.claude/proposals/${name}/proposal${v > 1 ? `-v${v}` : ""}.md`, body(v));
    }
    proposalItems.push({ name, title: pTitle, status, created_at: iso(created), updated_at: iso(updated), iterations: asFile ? 1 : iterations, tags: pickN(rng, NOUNS, 2), path: asFile ? `${name}.md` : `${name}/` });
  }
  w.json(".claude/proposals/manifest.json", manifest("proposals", iso(END - 14 * DAY), proposalItems));

  // --- Requirements KB: index.json + <ID>/metadata.json (+ a markdown file for some)
  const tickets: Record<string, unknown>[] = [];
  const tagCount: Record<string, number> = {};
  const compCount: Record<string, number> = {};
  for (let i = 0; i < nTickets; i++) {
    const id = `REQ-${String(i + 1).padStart(4, "0")}`;
    const tTitle = title(rng);
    const description = paragraph(rng, 2);
    const status = weighted(rng, [
      ["completed", 70],
      ["in_progress", 20],
      ["cancelled", 10],
    ] as const);
    const date = randomTime(rng, START - 365 * DAY, END);
    const tags = pickN(rng, NOUNS, int(rng, 1, 4));
    const components = pickN(rng, COMPONENTS, int(rng, 1, 3));
    const apis = Array.from({ length: int(rng, 0, 3) }, () => `${pick(rng, ["GET", "POST", "PUT", "DELETE"])} /api/${pick(rng, NOUNS)}`);
    for (const t of tags) tagCount[t] = (tagCount[t] ?? 0) + 1;
    for (const c of components) compCount[c] = (compCount[c] ?? 0) + 1;
    tickets.push({ id, title: tTitle, description, status, project: "bench-project", date: dateOnly(date), tags, components, apis, path: `${id}/`, archived: status !== "in_progress" });
    w.json(`knowledge/requirements/${id}/metadata.json`, {
      id,
      title: tTitle,
      description,
      status,
      project: "bench-project",
      dates: { created: dateOnly(date - 20 * DAY), completed: status === "completed" ? dateOnly(date) : null, archived: status !== "in_progress" ? dateOnly(date + 3 * DAY) : null },
      tags,
      components,
      apis: { added: apis, modified: [], removed: [] },
    });
    if (rng() < 0.2) w.write(`knowledge/requirements/${id}/requirements.md`, `# ${id}: ${tTitle}\n\n${paragraph(rng, 5)}\n`);
  }
  w.json("knowledge/requirements/index.json", {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    version: "1.0",
    last_updated: iso(END - DAY),
    total_tickets: tickets.length,
    tickets,
    tags: tagCount,
    components: compCount,
    projects: { "bench-project": tickets.length },
  });

  // --- Product knowledge: M markdown documents in category folders, plus a manifest
  const productItems: unknown[] = [];
  const categories: Record<string, number> = {};
  const productTags: Record<string, number> = {};
  const documentPaths: string[] = [];
  for (let i = 0; i < documents; i++) {
    const category = pick(rng, CATEGORIES);
    const topic = pick(rng, NOUNS);
    const rel = `${category}/${topic}-${i}.md`;
    const dTitle = `${cap(topic.replace(/-/g, " "))} ${pick(rng, ["overview", "rules", "lifecycle", "limits", "FAQ", "runbook", "glossary"])} ${i}`;
    const tags = pickN(rng, NOUNS, int(rng, 2, 5));
    const summary = sentence(rng, 10, 20);
    const sections = Array.from(
      { length: int(rng, 2, 5) },
      () => `## ${cap(pick(rng, NOUNS).replace(/-/g, " "))}\n\n${paragraph(rng)}\n\n${Array.from({ length: int(rng, 0, 4) }, () => `- ${sentence(rng, 5, 12)}`).join("\n")}\n`,
    );
    w.write(`knowledge/product/${rel}`, `# ${dTitle}\n\n${summary}\n\n${sections.join("\n")}`);
    documentPaths.push(`knowledge/product/${rel}`);
    categories[category] = (categories[category] ?? 0) + 1;
    for (const t of tags) productTags[t] = (productTags[t] ?? 0) + 1;
    productItems.push({ path: rel, title: dTitle, category, tags, summary });
  }
  w.json("knowledge/product/manifest.json", manifest("product-knowledge", iso(END - 2 * DAY), productItems, { categories, tags: productTags }));

  // --- git
  let commits = 0;
  let branches = 0;
  if (opts.git !== false) {
    ({ commits, branches } = gitHistory(root, rng, all, nCommits, nBranches, w));
  }

  return {
    dir: root,
    sessions: all.length,
    brainstorms: nBrainstorms,
    proposals: nProposals,
    tickets: nTickets,
    documents,
    commits,
    branches,
    files: w.files,
    workIds: all.map((s) => s.id),
    documentPaths,
  };
}

/** Every file below `dir` except .git, as sorted forward-slash relative paths. */
function listTree(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (e.name === ".git") continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listTree(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out.sort();
}

/**
 * The history is written with one `git fast-import` (a single pack, no loose objects, no
 * gc): commit 1 holds every file, each later commit changes one file under src/. The
 * working tree ends equal to HEAD and the index is rebuilt with `git reset`.
 */
function gitHistory(root: string, rng: Rng, sessions: Session[], nCommits: number, nBranches: number, w: Writer): { commits: number; branches: number } {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: root,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
  } as unknown as NodeJS.ProcessEnv;
  const git = (args: string[], input?: Buffer) =>
    execFileSync("git", ["-c", "gc.auto=0", "-c", "core.hooksPath=/dev/null", "-c", "core.autocrlf=false", ...args], {
      cwd: root,
      env,
      input,
      stdio: [input ? "pipe" : "ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    }).toString();
  git(["init", "-q", "-b", "main"]);

  const parts: Buffer[] = [];
  const text = (s: string) => parts.push(Buffer.from(s, "utf8"));
  const data = (content: Buffer | string) => {
    const b = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    text(`data ${b.length}\n`);
    parts.push(b);
    text("\n");
  };
  // Commit dates run evenly from early 2025 to late 2026, so the history spans the sessions.
  const step = Math.floor((END - START - 30 * DAY) / nCommits);
  const commit = (i: number, message: string, files: { rel: string; content: Buffer | string }[]) => {
    const when = Math.floor((START + 3 * DAY + i * step) / 1000);
    text(`commit refs/heads/main\nmark :${i + 1}\n`);
    text(`author Bench Bot <bench@example.com> ${when} +0000\ncommitter Bench Bot <bench@example.com> ${when} +0000\n`);
    data(message);
    if (i > 0) text(`from :${i}\n`);
    for (const f of files) {
      text(`M 100644 inline ${f.rel}\n`);
      data(f.content);
    }
    text("\n");
  };

  commit(
    0,
    "Initial import of agent context and knowledge base\n",
    listTree(root).map((rel) => ({ rel, content: fs.readFileSync(path.join(root, rel)) })),
  );
  const srcFiles = new Map<string, string>();
  for (let i = 1; i < nCommits; i++) {
    const s = pick(rng, sessions);
    const rel = `src/${pick(rng, ["orders", "export", "auth", "billing", "search"])}/module-${i % 12}.ts`;
    const content = (srcFiles.get(rel) ?? "") + `// ${s.id}: ${sentence(rng, 4, 10)}\nexport const step${i} = ${i};\n`;
    srcFiles.set(rel, content);
    const kind = pick(rng, ["feat", "fix", "refactor", "test", "docs"]);
    commit(i, `[${s.id}] ${kind}(${pick(rng, NOUNS)}): ${s.title.toLowerCase()}\n\n${sentence(rng, 10, 20)}\n`, [{ rel, content }]);
  }
  const branchSessions = pickN(
    rng,
    sessions.filter((s) => s.type !== "epic"),
    nBranches,
  );
  for (const s of branchSessions) text(`reset refs/heads/feature/${s.id}\nfrom :${int(rng, 1, nCommits)}\n\n`);
  text("done\n");
  git(["fast-import", "--quiet", "--done"], Buffer.concat(parts));

  for (const [rel, content] of srcFiles) w.write(rel, content);
  git(["reset", "-q"]);
  return { commits: nCommits, branches: branchSessions.length + 1 };
}

// ---------------------------------------------------------------------------
// CLI

function parseArgs(argv: string[]): { dir: string; opts: GenerateOptions } {
  const opts: GenerateOptions = {};
  let dir: string | undefined;
  const num = (flag: string, v: string | undefined): number => {
    const n = Number(v);
    if (v === undefined || !Number.isInteger(n) || n < 0) throw new Error(`${flag} needs a non-negative integer`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--sessions") opts.sessions = num(a, argv[++i]);
    else if (a === "--documents") opts.documents = num(a, argv[++i]);
    else if (a === "--tickets") opts.tickets = num(a, argv[++i]);
    else if (a === "--commits") opts.commits = num(a, argv[++i]);
    else if (a === "--branches") opts.branches = num(a, argv[++i]);
    else if (a === "--seed") opts.seed = num(a, argv[++i]);
    else if (a === "--no-git") opts.git = false;
    else if (a === "-h" || a === "--help") {
      process.stdout.write("usage: tsx bench/generate-project.ts <dir> [--sessions N] [--documents N] [--tickets N] [--commits N] [--branches N] [--seed N] [--no-git]\n");
      process.exit(0);
    } else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else if (dir === undefined) dir = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!dir) throw new Error("usage: tsx bench/generate-project.ts <dir> [--sessions N] [--documents N]");
  return { dir, opts };
}

/**
 * The generated project for these options, written once under bench/out/projects/ and reused
 * by every benchmark run after that (never modified: copy it before editing it).
 */
export function cachedProject(opts: Required<Pick<GenerateOptions, "sessions" | "documents" | "tickets" | "seed">>): {
  dir: string;
  workIds: string[];
  documentPaths: string[];
  generatedMs: number | null;
} {
  const key = `s${opts.sessions}-d${opts.documents}-t${opts.tickets}-seed${opts.seed}-v${GENERATOR_VERSION}`;
  const dir = path.join(OUT_DIR, "projects", key);
  const meta = path.join(OUT_DIR, "projects", `${key}.json`);
  if (fs.existsSync(dir) && fs.existsSync(meta)) {
    const m = JSON.parse(fs.readFileSync(meta, "utf8")) as { workIds: string[]; documentPaths: string[] };
    return { dir, ...m, generatedMs: null };
  }
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const r = generateProject(partial, opts);
  fs.renameSync(partial, dir);
  fs.writeFileSync(meta, JSON.stringify({ workIds: r.workIds, documentPaths: r.documentPaths, files: r.files, commits: r.commits, branches: r.branches }) + "\n");
  return { dir, workIds: r.workIds, documentPaths: r.documentPaths, generatedMs: performance.now() - t0 };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  try {
    const { dir, opts } = parseArgs(process.argv.slice(2));
    const t0 = performance.now();
    const r = generateProject(dir, opts);
    const { workIds: _w, documentPaths: _d, ...summary } = r;
    process.stdout.write(`${JSON.stringify(summary)}\n(${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
  } catch (e) {
    process.stderr.write(`generate-project: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
