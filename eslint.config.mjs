// The layers of docs/ARCHITECTURE.md, held by lint: app and cli -> capability services ->
// domain -> db repositories -> core. `npm run lint` runs it (first in `npm test`).
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import workbench from "./eslint/plugin.mjs";

const SOURCES = ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"];
const DEEP_CONTEXT_PARTS = ["reducer", "convergence", "views", "compare", "view-host"];

// Prisma is the database layer's business: everything else sees DTOs.
const PRISMA = {
  group: ["@prisma/*", "prisma", "prisma/*", "**/db/generated", "**/db/generated/**"],
  message: "Prisma lives only in lib/db (and prisma/): use a repository through the capability's service, and its DTOs.",
};
// lib/ is the domain, shared by the pages, the CLI and the MCP server.
const UI = {
  group: ["react", "react/*", "react-dom", "react-dom/*", "next", "next/*"],
  message: "lib/ holds no React or Next code: put it in components/ or app/.",
};
// git obeys the configuration of the repository it runs in, which the Workbench does not own.
const GIT = {
  group: ["simple-git"],
  message: "git runs only through lib/core/git-runner.ts (a shadow git folder, hardened settings, a deadline): see docs/ARCHITECTURE.md, Running git.",
};
const restricted = (...patterns) => ["error", { patterns }];

// Packages that cannot run in a browser, besides Node's built-ins (`pg` covers `pg/…` too).
const SERVER_PACKAGES = [
  "@prisma/*",
  "prisma",
  "better-sqlite3",
  "pg",
  "ioredis",
  "chokidar",
  "simple-git",
  "@hocuspocus/server",
  "@hocuspocus/extension-*",
  "ws",
  "esbuild",
  "commander",
  "@modelcontextprotocol/sdk",
  "server-only",
  "next/headers",
  "next/server",
];

export default defineConfig(
  {
    ignores: ["node_modules/", ".next/", ".next-*/", "dist/", "data/", ".tmp/", "bench/out/", "test-results*/", "playwright-report/", "lib/db/generated/", "examples/", "tests/fixtures/", "next-env.d.ts"],
  },
  { files: SOURCES, extends: [js.configs.recommended, tseslint.configs.recommended] },
  {
    files: SOURCES,
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "import-x": importX, workbench },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })] },
    rules: {
      "workbench/no-cycle": "error",
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: ["./app", "./components"],
              from: "./lib/db",
              message: "app/ and components/ reach the database through a capability: call lib/<capability>/service.ts and take DTO types from lib/<capability>/types.ts (docs/ARCHITECTURE.md).",
            },
            {
              target: "./lib/db",
              from: "./lib",
              except: ["./core", "./db"],
              message: "lib/db imports only lib/core and itself: the capability calls the repository, never the other way round.",
            },
            { target: "./lib/core", from: "./lib", except: ["./core"], message: "lib/core is the bottom layer: it imports nothing else of lib/." },
            { target: "./lib", from: ["./app", "./components", "./cli"], message: "lib/ is below app/, components/ and cli/: it never imports them." },
            // deep-context's parts are used through their index.ts, so each can change inside.
            // One file is let through: lib/deep-context/schemas.ts is the API contract the browser
            // loads, and the parts' index files also carry Node-only code (the file watcher); it
            // takes the parts' zod-only query modules directly, and workbench/client-safe keeps
            // what it pulls into the browser honest.
            ...DEEP_CONTEXT_PARTS.map((part) => ({
              target: ["app/**/*", "components/**/*", "cli/**/*", "lib/!(deep-context)/**/*", "lib/deep-context/!(schemas).ts", `lib/deep-context/!(${part})/**/*`],
              from: `./lib/deep-context/${part}`,
              except: ["./index.ts"],
              message: `Use lib/deep-context/${part} through its index.ts ("…/deep-context/${part}"), not its files.`,
            })),
            { target: "./components", from: ["./app", "./cli"], message: "components/ is presentation: it takes what it shows as props or from lib/, never from app/ or cli/." },
            { target: "./cli", from: ["./app", "./components"], message: "The CLI calls lib/, never the pages." },
          ],
        },
      ],
      "no-restricted-imports": restricted(PRISMA),
      // Where recommended fights the code base's deliberate style:
      // a dozen regular expressions match control characters on purpose (terminal and JSON
      // escaping, key, URL and query validation), and a directive at each would say nothing;
      "no-control-regex": "off",
      // TypeScript reports unknown names in .ts files; the few .mjs and .cjs scripts run on Node, whose globals it does not know;
      "no-undef": "off",
      // it flags the first value of a variable that every branch assigns (`let st = null`);
      "no-useless-assignment": "off",
      // `_`-prefixed names are unused on purpose (ignored arguments, omitted rest properties).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  { files: ["lib/**"], ignores: ["lib/db/**"], rules: { "no-restricted-imports": restricted(PRISMA, UI, GIT) } },
  { files: ["lib/db/**"], rules: { "no-restricted-imports": restricted(UI, GIT) } },
  { files: ["app/**", "components/**", "cli/**"], rules: { "no-restricted-imports": restricted(PRISMA, GIT) } },
  { files: ["prisma/**"], rules: { "no-restricted-imports": "off" } },
  { files: ["app/**", "components/**"], rules: { "workbench/client-safe": ["error", { serverPackages: SERVER_PACKAGES }] } },
  {
    files: ["app/**/*.tsx", "components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    // The two classic hook rules; the React Compiler rules of the plugin's recommended set are
    // left off (the app does not use the compiler).
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  // Tests build loose fixtures and read untyped JSON.
  { files: ["tests/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  // CommonJS: the bin, its build-state helper and preload scripts for node --require.
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs" }, rules: { "@typescript-eslint/no-require-imports": "off" } },
);
