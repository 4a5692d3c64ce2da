import { describe, expect, it } from "vitest";
import { MCP_TOOL_NAMES, toolListMismatch } from "../../../lib/mcp/tool-names";

describe("toolListMismatch", () => {
  it("accepts exactly the listed tools, in any order", () => {
    expect(toolListMismatch([...MCP_TOOL_NAMES])).toBeNull();
    expect(toolListMismatch([...MCP_TOOL_NAMES].reverse())).toBeNull();
  });

  it("names a tool registered but not listed, one listed but not registered, and one registered twice", () => {
    const [first, ...rest] = MCP_TOOL_NAMES;
    expect(toolListMismatch([...MCP_TOOL_NAMES, "summon_coffee"])).toBe("registered but not in lib/mcp/tool-names.ts: summon_coffee");
    expect(toolListMismatch(rest)).toBe(`in lib/mcp/tool-names.ts but not registered: ${first}`);
    expect(toolListMismatch([...MCP_TOOL_NAMES, first])).toBe(`registered twice: ${first}`);
  });
});
