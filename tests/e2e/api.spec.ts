import { expect, test } from "@playwright/test";

test("the API page lists each operation from the OpenAPI document, which the server serves as OpenAPI 3.1", async ({ page, request }) => {
  const res = await request.get("/api/v1/openapi.json");
  expect(res.ok()).toBe(true);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; summary: string }>> };
  expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  const addProject = doc.paths["/api/v1/projects"]!.post!;
  expect(addProject.operationId).toBe("addProject");

  await page.goto("/");
  await page.getByRole("link", { name: "API", exact: true }).click();
  await expect(page).toHaveURL(/\/api-docs$/);
  await expect(page.getByRole("heading", { level: 1, name: "API" })).toBeVisible();
  const op = page.getByTestId("operation-addProject");
  await expect(op.getByRole("heading", { level: 3 })).toHaveText(/POST\s*\/api\/v1\/projects$/);
  await expect(op).toContainText(addProject.summary);
  // The body's fields, with the descriptions from the zod schemas.
  await expect(op).toContainText("Body (application/json)");
  await expect(op).toContainText("absolute or relative path of a project folder on the server");
  await expect(op).toContainText("Response 201");
  await expect(op).toContainText("400 INVALID_INPUT");
  await expect(page.getByRole("link", { name: "/api/v1/openapi.json" })).toHaveAttribute("href", "/api/v1/openapi.json");
});
