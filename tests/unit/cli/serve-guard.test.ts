import { describe, expect, it } from "vitest";
import { runWorkbench } from "../../helpers/run-cli";

const env = (extra: Record<string, string>) => {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const k of ["WORKBENCH_AUTH_SECRET", "HOST"]) if (!(k in extra)) delete e[k];
  return e;
};

describe("workbench serve refuses unsafe setups before starting anything", () => {
  it("keeps local mode (no sign-in) on loopback", async () => {
    const r = await runWorkbench(["serve", "--host", "0.0.0.0", "--port", "1"], { env: env({ WORKBENCH_MODE: "local" }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ERROR: Local mode has no sign-in, so it listens on loopback only; --host 0\.0\.0\.0/);
  });

  it("refuses team mode without a secret", async () => {
    const r = await runWorkbench(["serve", "--port", "1"], { env: env({ WORKBENCH_MODE: "team" }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ERROR: WORKBENCH_AUTH_SECRET: team mode needs a secret/);
  });
});
