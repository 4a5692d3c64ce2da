/**
 * Every environment variable the Workbench reads, in one place: its name, its zod type, the
 * default people see in the README, and what it means (`.describe()`). Runtime code reads a
 * variable with `readEnv(name)`, never by reading process.env itself; the README's configuration tables are
 * generated from this list (`npm run docs:config`) and a unit test holds the two together.
 *
 * Variables are read when asked for, one at a time, not validated as a whole at start: a local
 * server must not refuse to start over a stray team-mode variable it never uses, and tests set
 * variables while the process runs.
 *
 * Plain `.mjs` scripts and next.config.js cannot import this file; they read `process.env`
 * themselves, but only variables declared here (the same test checks them).
 */
import { z } from "zod";
import { WorkbenchError } from "./errors";

export type EnvSource = Record<string, string | undefined>;

/**
 * Who sets a variable: `operator` (the configuration table), `client` (the CLI's `workbench
 * api` on another machine), `internal` (set by `workbench serve` or `npm run dev` for the
 * processes they start), `development` (tests, benchmarks and scripts), `system` (the OS's own,
 * passed through to git and the PostgreSQL tools).
 */
export type EnvAudience = "operator" | "client" | "internal" | "development" | "system";

interface EnvSpec<S extends z.ZodType> {
  schema: S;
  /** The default as the README shows it (a value, or a phrase in parentheses). */
  shown: string;
  audience: EnvAudience;
}

function spec<S extends z.ZodType>(audience: EnvAudience, shown: string, schema: S): EnvSpec<S> {
  return { schema, shown, audience };
}

const PORT_MESSAGE = "must be a port number (1-65535)";
const port = () =>
  z
    .string()
    .regex(/^\d{1,5}$/, PORT_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 65535, PORT_MESSAGE)
    .optional();
const text = () => z.string().optional();
const flag = () => z.enum(["0", "1"], { error: 'must be "1" (on) or "0" (off)' }).optional();

export const ENV = {
  WORKBENCH_DATA_DIR: spec("operator", "`./data`", text().describe("where the embedded SQLite database and the sample project live")),
  DATABASE_URL: spec("operator", "(SQLite in the data dir)", text().describe("`postgresql://…` to use PostgreSQL instead (team deployments); `file:…` for another SQLite file")),
  PORT: spec("operator", "`3000`", port().default(3000).describe("where `workbench serve` (and `npm run dev`) listens")),
  HOST: spec("operator", "`127.0.0.1`", text().describe("the interface `workbench serve` listens on (local mode listens on loopback only)")),
  WORKBENCH_COLLAB_PORT: spec("operator", "`PORT + 1`", port().describe("the co-editing WebSocket server's port")),
  REDIS_URL: spec("operator", "(none)", text().describe("`redis://…` shared by several instances so co-editing reaches everyone whichever instance they are on; unset for one instance")),
  WORKBENCH_FETCH_INTERVAL: spec(
    "operator",
    "`300`",
    z
      .string()
      .optional()
      .transform((s, ctx) => {
        if (s === undefined || s.trim() === "") return 300;
        const n = Number(s);
        if (/^\s*\d+\s*$/.test(s) && Number.isSafeInteger(n)) return n;
        ctx.addIssue({ code: "custom", message: `must be a whole number of seconds (0 disables), not "${s}"` });
        return z.NEVER;
      })
      .describe("seconds between `workbench serve`'s fetches of projects added from git remotes; `0` turns them off"),
  ),
  AGENT_COLLAB_HUMAN_KEYS_JSON: spec("operator", "(none)", text().describe('approvers\' signing secrets as `{"<key_id>":"<secret>"}` (see "Approver keys")')),
  WORKBENCH_HUMAN_KEYS_FILE: spec("operator", "(none)", text().describe("a JSON file outside every project holding the same as `AGENT_COLLAB_HUMAN_KEYS_JSON` (read when that is unset)")),
  WORKBENCH_MODE: spec("operator", "`local`", z.enum(["local", "team"]).default("local").describe('`team`: accounts, roles and sign-in on every request (see "Team mode")')),
  WORKBENCH_AUTH_SECRET: spec(
    "operator",
    "(none)",
    z.string().min(32, "must be at least 32 characters").optional().describe("team mode: at least 32 characters; signs sessions and co-editing tokens (same value on every instance)"),
  ),
  WORKBENCH_PUBLIC_URL: spec("operator", "(the request's origin)", z.url().optional().describe("team mode: the URL people open; sign-in requests from other origins are refused")),
  WORKBENCH_SIGNUP: spec("operator", "`closed`", z.enum(["open", "closed"]).default("closed").describe("`open` lets anyone create an account on `/sign-in` (the first account may always)")),
  WORKBENCH_OIDC_ISSUER: spec("operator", "(none)", z.url().optional().describe("team mode: an OpenID Connect issuer (discovery from `<issuer>/.well-known/openid-configuration`)")),
  WORKBENCH_OIDC_CLIENT_ID: spec("operator", "(none)", z.string().min(1).optional().describe("team mode: the OIDC client id")),
  WORKBENCH_OIDC_CLIENT_SECRET: spec("operator", "(none)", z.string().min(1).optional().describe("team mode: the OIDC client secret")),
  WORKBENCH_OIDC_NAME: spec("operator", "`Single sign-on`", z.string().min(1).default("Single sign-on").describe("team mode: the label of the OIDC sign-in button")),
  WORKBENCH_DEBUG: spec("operator", "(off)", text().describe("any value: the CLI prints a failure's details and stack trace after its one-line message")),

  WORKBENCH_URL: spec("client", "(none)", text().describe("`workbench api`: the Workbench to call, e.g. `https://workbench.example.com`")),
  WORKBENCH_TOKEN: spec("client", "(none)", text().describe("`workbench api`: a personal access token (`wb_…`) sent as `Authorization: Bearer`")),

  WORKBENCH_APP_ROOT: spec("internal", "(found from the working folder)", text().describe("the Workbench's own folder (where prisma/ lives); set for the dashboard's process")),
  WORKBENCH_RUN_VIEWS: spec(
    "internal",
    "`process`",
    z
      .enum(["process", "inline"])
      .default("process")
      .describe("where deep-context run views are computed: `process`, in `workbench run-views` beside the server; `inline`, in the asking process (set for that process itself)"),
  ),
  WORKBENCH_COLLAB_HOST: spec("internal", "`HOST`", text().describe("the interface the co-editing server listens on, for the readiness check")),
  WORKBENCH_CLI_FROM_SOURCE: spec("development", "(off)", flag().describe("`1`: `bin/workbench.cjs` runs the TypeScript sources even when the compiled CLI is current")),
  WORKBENCH_QUERY_STATS: spec("development", "(off)", flag().describe("`1`: count SQL statements (benchmarks and query-count tests; costs a little per statement)")),
  COLLAB_DEBOUNCE: spec(
    "development",
    "`200`",
    z.string().regex(/^\d+$/, "must be a number of milliseconds").transform(Number).default(200).describe("scripts/collab-server.ts: milliseconds before a shared document is stored"),
  ),
  NEXT_DIST_DIR: spec("development", "`.next`", text().describe("next.config.js: the build folder, so a second build (a parallel browser test run) can live beside the main one")),
  CHROMIUM_PATH: spec("development", "`/usr/bin/chromium`", text().describe("the Chromium scripts/screenshot.mjs and the test scripts use")),
  SCHEMES: spec("development", "`light`", text().describe("scripts/screenshot.mjs: colour schemes to shoot, comma-separated (`light,dark`)")),
  FULL: spec("development", "`1`", flag().describe("scripts/screenshot.mjs: `0` shoots the viewport only, not the full page")),

  PATH: spec("system", "", text().describe("passed to git and the PostgreSQL tools")),
  HOME: spec("system", "", text().describe("passed to git")),
  NODE_ENV: spec("system", "", text().describe("set by Next.js")),
  GIT_DIR: spec("system", "", text().describe("honoured by git; while set, a re-index cannot tell from the project's .git folder that the refs did not move, and reads them")),
  GIT_WORK_TREE: spec("system", "", text().describe("honoured by git; see GIT_DIR")),
  GIT_COMMON_DIR: spec("system", "", text().describe("honoured by git; see GIT_DIR")),
} as const;

export type EnvName = keyof typeof ENV;
export type EnvValue<K extends EnvName> = z.output<(typeof ENV)[K]["schema"]>;

export function isEnvName(name: string): name is EnvName {
  return Object.prototype.hasOwnProperty.call(ENV, name);
}

/**
 * One variable, parsed. An invalid value is refused with a message that names the variable
 * (`WORKBENCH_MODE: Invalid option: expected one of "local"|"team"`), never used half-read.
 */
export function readEnv<K extends EnvName>(name: K, source: EnvSource = process.env): EnvValue<K> {
  return parseEnvValue(name, source[name]);
}

/** A raw value (as the environment holds it) parsed as the variable `name`. */
export function parseEnvValue<K extends EnvName>(name: K, raw: string | undefined): EnvValue<K> {
  const parsed = ENV[name].schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WorkbenchError("INVALID_INPUT", `${name}: ${issue.message}`);
  }
  return parsed.data as EnvValue<K>;
}

export interface EnvDoc {
  name: EnvName;
  audience: EnvAudience;
  shown: string;
  description: string;
}

/** What the README says about each variable, in declaration order. */
export function envDocs(): EnvDoc[] {
  return (Object.keys(ENV) as EnvName[]).map((name) => ({
    name,
    audience: ENV[name].audience,
    shown: ENV[name].shown,
    description: ENV[name].schema.description ?? "",
  }));
}
