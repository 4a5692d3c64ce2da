import path from "node:path";
import { defineConfig } from "vitest/config";

// *.pg.test.ts need a shared PostgreSQL (several instances): only the PostgreSQL run has one.
const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Vitest's default on a 2-core machine is one worker (cores - 1). Many tests here wait on
    // child processes (the CLI, git, the co-editing server) rather than compute, so two workers
    // roughly halve the wall time. Database test files run two at a time as well: each file
    // has its own SQLite database, and on PostgreSQL each worker its own database.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          // Unit tests hold no per-file state (no database, no module mocks), so a worker keeps
          // the modules it loaded for the next file instead of importing them again.
          isolate: false,
          // A few unit tests spawn the CLI; on a busy 2-core machine that can pass 5 s.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          // Components in a simulated DOM (happy-dom) with Testing Library: clicks, keys, filters.
          name: "component",
          include: ["tests/component/**/*.test.tsx"],
          environment: "happy-dom",
          setupFiles: ["tests/component/setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          // A database of their own per file (SQLite) or per worker (PostgreSQL, emptied before
          // each file): see tests/db/setup.ts.
          name: "db",
          // Each file still gets its own database (tests/db/setup.ts runs before every file, and
          // every file closes the database after it); the modules loaded stay for the next file.
          isolate: false,
          include: ["tests/db/**/*.test.ts"],
          exclude: onPostgres ? [] : ["tests/db/**/*.pg.test.ts"],
          environment: "node",
          setupFiles: ["tests/db/setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
