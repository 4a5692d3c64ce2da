/**
 * Team mode in the browser: sign-in on every page, the first account as administrator, accounts
 * and roles set in the UI (checked in the database), and what each person then sees.
 */
import { expect, request, test, type Browser, type Page } from "@playwright/test";
import { setupCode } from "../../lib/auth/setup-code";
import { TEAM_SECRET } from "../../playwright.config";
import { sampleDir, TEAM_URL, teamDbQuery } from "./helpers";

const PASSWORD = "correct horse battery staple";

async function signIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: TEAM_URL });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  return page;
}

test.describe.serial("team mode", () => {
  let projectId = "";
  let packetId = "";

  test("sends a signed-out visitor to sign in, and answers the API with 401", async ({ page, request }) => {
    await page.goto(`${TEAM_URL}/projects/anything?tab=x`);
    await expect(page).toHaveURL(`${TEAM_URL}/sign-in?next=${encodeURIComponent("/projects/anything?tab=x")}`);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    for (const path of ["/api/v1/projects", "/api/v1/search?q=x", "/api/v1/me/tokens"]) {
      const res = await request.get(`${TEAM_URL}${path}`);
      expect(res.status(), path).toBe(401);
    }
  });

  test("the first account administers: adds a project, creates accounts, makes a viewer", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: TEAM_URL });
    const page = await context.newPage();
    // Without the setup code the server printed, nobody claims it.
    const claim = await page.request.post("/api/auth/sign-up/email", { data: { name: "Mallory", email: "mallory@example.com", password: PASSWORD } });
    expect(claim.status()).toBe(403);
    await page.goto(`/sign-in?setup=${setupCode(TEAM_SECRET)}`);
    await expect(page.getByText("The first account becomes the instance administrator")).toBeVisible();
    await expect(page.getByLabel("Setup code")).toHaveValue(setupCode(TEAM_SECRET));
    await page.getByLabel("Name").fill("Ada Admin");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
    expect(teamDbQuery<{ isAdmin: number }>(`SELECT "isAdmin" FROM "User" WHERE "email" = ?`, "ada@example.com")).toEqual([{ isAdmin: 1 }]);

    await page.getByLabel("Project folder on this machine").fill(sampleDir());
    await page.getByRole("button", { name: "Add and index" }).click();
    await page.waitForURL(/\/projects\/[^/?]+\?job=/);
    projectId = new URL(page.url()).pathname.split("/")[2]!;
    // Let the index job finish first: on a 2-core machine it slows password hashing below.
    await expect.poll(() => teamDbQuery<{ status: string }>(`SELECT "status" FROM "IndexJob" WHERE "projectId" = ?`, projectId).map((j) => j.status), { timeout: 60_000 }).toEqual(["succeeded"]);

    await page.goto("/admin");
    for (const [name, email] of [
      ["Vera Viewer", "vera@example.com"],
      ["Otto Outsider", "otto@example.com"],
    ]) {
      await page.getByLabel("Name").fill(name!);
      await page.getByLabel("Email").fill(email!);
      await page.getByLabel("Initial password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      // Hashing the password (scrypt) is deliberately slow.
      await expect(page.getByRole("cell", { name: email })).toBeVisible({ timeout: 15_000 });
    }
    expect(teamDbQuery<{ n: number }>(`SELECT count(*) AS n FROM "User"`)).toEqual([{ n: 3 }]);

    await page.goto(`/projects/${projectId}/members`);
    await page.getByLabel("Account email").fill("vera@example.com");
    await page.getByLabel("Role").selectOption("viewer");
    await page.getByRole("button", { name: "Add member" }).click();
    await expect(page.getByRole("cell", { name: "Vera Viewer", exact: true })).toBeVisible();
    const packet = await page.request.post(`/api/v1/projects/${projectId}/packets`, { data: { markdown: "## Context Packet\n\n**Task**: Persist export jobs\n" } });
    packetId = ((await packet.json()) as { packet: { id: string } }).packet.id;
    expect(teamDbQuery(`SELECT m."role" FROM "ProjectMember" m JOIN "User" u ON u."id" = m."userId" WHERE m."projectId" = ? AND u."email" = ?`, projectId, "vera@example.com")).toEqual([{ role: "viewer" }]);
    await context.close();
  });

  test("a viewer reads the project but cannot change it, and acts through a token", async ({ browser }) => {
    const page = await signIn(browser, "vera@example.com");
    await expect(page.getByRole("navigation", { name: "Projects" }).getByRole("link", { name: /sample/ })).toBeVisible();
    await expect(page.locator("#add-project")).toHaveCount(0);
    await page.goto(`/projects/${projectId}/members`);
    await expect(page.getByText("Your role: viewer")).toBeVisible();
    await expect(page.getByRole("cell", { name: "vera@example.com" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);
    const reindex = await page.request.post(`/api/v1/projects/${projectId}/index`);
    expect(reindex.status()).toBe(403);
    // A packet is shown live but read-only: nothing a viewer cannot do is offered.
    await page.goto(`/projects/${projectId}/packets/${packetId}`);
    await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
    await expect(page.getByText("changing it needs the editor role")).toBeVisible();
    for (const name of ["Save", "Duplicate", "Archive"]) await expect(page.getByRole("button", { name, exact: true })).toBeDisabled();

    await page.goto("/account");
    await page.getByLabel("Token name").fill("e2e-agent");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = await page.getByLabel("Token", { exact: true }).inputValue();
    expect(token).toMatch(/^wb_/);
    // An agent: no browser, no cookie, just the token.
    const agent = await request.newContext({ baseURL: TEAM_URL });
    expect((await agent.get("/api/v1/projects")).status()).toBe(401);
    const asAgent = await agent.get("/api/v1/projects", { headers: { authorization: `Bearer ${token}` } });
    expect(((await asAgent.json()) as { projects: { id: string }[] }).projects.map((p) => p.id)).toEqual([projectId]);
    await agent.dispose();
    await page.context().close();
  });

  test("someone who is not a member sees no project, and its pages are as missing as a missing one", async ({ browser }) => {
    const page = await signIn(browser, "otto@example.com");
    await expect(page.getByText("No projects shared with you yet")).toBeVisible();
    const hidden = await page.goto(`/projects/${projectId}`);
    expect(hidden?.status()).toBe(404);
    const hiddenText = await page.locator("main").innerText();
    const missing = await page.goto(`/projects/no-such-project`);
    expect(missing?.status()).toBe(404);
    expect(await page.locator("main").innerText()).toBe(hiddenText);
    const api = await page.request.get(`/api/v1/projects/${projectId}/topics`);
    expect(api.status()).toBe(404);
    await page.context().close();
  });
});
