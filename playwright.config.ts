import { defineConfig } from "@playwright/test";

// scripts/e2e.sh prepares E2E_DATA_DIR (an empty database) and E2E_SAMPLE_DIR (a fresh
// copy of the sample project) before this runs; the server uses only that data dir.
const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? ".tmp/e2e-data";
/** A second server in team mode (accounts, roles) on its own database, for tests/e2e/team.spec.ts. */
export const TEAM_PORT = port + 2;
export const TEAM_SECRET = "e2e-team-secret-e2e-team-secret-0123456789";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  outputDir: port === 3210 ? "test-results" : `test-results-${port}`,
  reporter: [["list"], ["json", { outputFile: port === 3210 ? ".tmp/results/playwright.json" : `.tmp/results-${port}/playwright.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  webServer: [
    {
      command: `node bin/workbench.cjs serve --port ${port}`,
      url: `http://127.0.0.1:${port}/api/v1/projects`,
      reuseExistingServer: false,
      timeout: 60_000,
      // An approver key for the memory-proposal journey (its hash is pinned by that test).
      env: { WORKBENCH_DATA_DIR: dataDir, DATABASE_URL: "", WORKBENCH_MODE: "local", AGENT_COLLAB_HUMAN_KEYS_JSON: JSON.stringify({ "e2e-approver": "e2e-approver-secret-0123456789" }) },
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      command: `node bin/workbench.cjs serve --port ${TEAM_PORT}`,
      // Readiness, not the API: team mode answers the API 401 until someone signs in.
      url: `http://127.0.0.1:${TEAM_PORT}/api/ready`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        WORKBENCH_DATA_DIR: `${dataDir}-team`,
        DATABASE_URL: "",
        WORKBENCH_MODE: "team",
        WORKBENCH_AUTH_SECRET: TEAM_SECRET,
        WORKBENCH_PUBLIC_URL: `http://127.0.0.1:${TEAM_PORT}`,
        WORKBENCH_FETCH_INTERVAL: "0",
      },
      stdout: "ignore",
      stderr: "pipe",
    },
  ],
});
