import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE } from "../../lib/packets";
import { createProjectPacket, listPackets, saveProjectPacket, updateProjectPacket } from "../../lib/packets/service";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const withTask = (task: string) => PACKET_TEMPLATE.replace(/^\*\*Task\*\*:.*$/m, `**Task**: ${task}`);
const withSummary = (summary: string) => BRIEF_TEMPLATE.replace(/^\*\*Summary:\*\*.*$/m, `**Summary:** ${summary}`);

describe("a packet's title", () => {
  let projectId = "";
  beforeAll(async () => {
    projectId = (await addProject({ path: makeTempDir() })).id;
  });

  it("follows the Task on every save until someone renames it", async () => {
    const p = await createProjectPacket(projectId, { kind: "packet" });
    expect(p.title).toBe("Untitled packet");
    const first = await saveProjectPacket(projectId, p.id, { markdown: withTask("Retry a failed export job") });
    expect(first.packet.title).toBe("Retry a failed export job");
    const second = await saveProjectPacket(projectId, p.id, { markdown: withTask("Retry failed export jobs with backoff") });
    expect(second.packet.title).toBe("Retry failed export jobs with backoff");
    expect((await listPackets(projectId)).find((x) => x.id === p.id)!.title).toBe("Retry failed export jobs with backoff");

    const renamed = await updateProjectPacket(projectId, p.id, { title: "Export retries" });
    expect(renamed.title).toBe("Export retries");
    const third = await saveProjectPacket(projectId, p.id, { markdown: withTask("Something else entirely") });
    expect(third.packet.title).toBe("Export retries");

    // Renamed back to what its Task says, it follows again.
    await updateProjectPacket(projectId, p.id, { title: "Something else entirely" });
    const fourth = await saveProjectPacket(projectId, p.id, { markdown: withTask("Back to following") });
    expect(fourth.packet.title).toBe("Back to following");
  });

  it("follows a brief's Summary, and a title given at creation stays", async () => {
    const b = await createProjectPacket(projectId, { kind: "brief" });
    expect(b.title).toBe("Untitled brief");
    expect((await saveProjectPacket(projectId, b.id, { markdown: withSummary("Exports stop after a restart") })).packet.title).toBe("Exports stop after a restart");

    const named = await createProjectPacket(projectId, { kind: "packet", title: "Chosen name" });
    expect((await saveProjectPacket(projectId, named.id, { markdown: withTask("Retry a failed export job") })).packet.title).toBe("Chosen name");
  });
});
