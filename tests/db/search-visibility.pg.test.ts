/**
 * PostgreSQL: search's facet groups, which also decide the "every word" / "any word" fallback,
 * count only the projects the caller may see, so `matched` cannot reveal whether a hidden
 * project holds all the words. (SQLite builds its groups from visible entries only.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as search } from "../../app/api/v1/search/route";
import { setMember } from "../../lib/db/repositories/accounts";
import { createProjectPacket } from "../../lib/packets/service";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

describe("team mode: search does not reveal what hidden projects contain", () => {
  let headers: Record<string, string> = {};

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com");
    const v = await accountWithToken("viewer@example.com");
    headers = v.headers;
    const mine = await addProject({ path: makeTempDir() });
    const secret = await addProject({ path: makeTempDir() });
    await setMember(mine.id, v.id, "viewer");
    await createProjectPacket(mine.id, { markdown: "## Context Packet\n\n**Task**: zebra onboarding\n" });
    await createProjectPacket(secret.id, { markdown: "## Context Packet\n\n**Task**: zebra acquisition of quokkacorp\n" });
  });
  afterAll(() => {
    leaveTeamMode();
    removeTempDirs();
  });

  const ask = async (q: string) => {
    const res = await search(new Request(`http://127.0.0.1:3999/api/v1/search?q=${encodeURIComponent(q)}`, { headers }), { params: Promise.resolve({}) });
    return (await res.json()) as { total: number; matched: string };
  };

  it("answers a query whose words only a hidden project holds like one nobody holds", async () => {
    const hidden = await ask("zebra quokkacorp"); // both words: only in the hidden project
    const nowhere = await ask("zebra xylophonecorp"); // both words: in no project
    expect(hidden).toMatchObject({ matched: nowhere.matched, total: nowhere.total });
  });
});
