/**
 * Local mode has no credentials, so loopback is its boundary: a cross-site form post is refused
 * (Origin, Sec-Fetch-Site and JSON-only bodies), and a request addressed to a non-loopback Host
 * (DNS rebinding) is not served.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createPacketRoute } from "../../app/api/v1/projects/[id]/packets/route";
import { addProject } from "../../lib/projects/add-project";
import { proxy } from "../../proxy";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

describe("local mode: requests from other sites", () => {
  let projectId = "";
  beforeAll(async () => {
    delete process.env.WORKBENCH_MODE;
    projectId = (await addProject({ path: copySampleProject() })).id;
  });
  afterAll(removeTempDirs);

  it("refuses a cross-origin text/plain write", async () => {
    const res = await createPacketRoute(
      new Request(`http://127.0.0.1:3000/api/v1/projects/${projectId}/packets`, {
        method: "POST",
        headers: { "content-type": "text/plain", origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        body: '{"kind":"brief","title":"planted by another site","x":"="}',
      }),
      { params: Promise.resolve({ id: projectId }) },
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  it("does not serve a request addressed to a non-loopback Host (DNS rebinding)", () => {
    const res = proxy(new NextRequest("http://attacker.example:3000/api/v1/projects", { headers: { host: "attacker.example:3000" } }));
    // NextResponse.next() carries x-middleware-next; a refusal would not.
    expect(res.headers.get("x-middleware-next")).toBeNull();
  });
});
