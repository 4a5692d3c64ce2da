import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { FindingsPanel } from "../../components/packets/findings-panel";
import { PACKET_TEMPLATE, validatePacket } from "../../lib/packets";

// The template as the editor opens it: placeholders everywhere, so BLOCK findings.
const template = validatePacket(PACKET_TEMPLATE);

describe("the editor's findings panel", () => {
  it("lists each finding with its tier, rule, place, seed line and suggestion", () => {
    render(<FindingsPanel findings={template.findings} onReveal={() => {}} />);
    expect(screen.getByRole("heading", { name: `Findings (${template.findings.length})` })).toBeTruthy();
    const items = within(screen.getByTestId("findings")).getAllByRole("button");
    expect(items).toHaveLength(template.findings.length);
    const first = template.findings[0]!;
    expect(items[0]!.getAttribute("data-rule")).toBe(first.rule);
    expect(items[0]!.getAttribute("data-tier")).toBe(first.tier);
    expect(items[0]!.textContent).toContain(`${first.line}:${first.column}`);
    expect(items[0]!.textContent).toContain(first.message);
    expect(within(items[0]!).getByTestId("seed-ref").textContent).toMatch(/^seed 001 line \d+/);
    expect(items.filter((b) => b.getAttribute("data-tier") === "BLOCK").length).toBe(template.findings.filter((f) => f.tier === "BLOCK").length);
  });

  it("reveals the finding that is clicked, and only that one", async () => {
    const user = userEvent.setup();
    const onReveal = vi.fn();
    render(<FindingsPanel findings={template.findings} onReveal={onReveal} />);
    const items = within(screen.getByTestId("findings")).getAllByRole("button");
    await user.click(items[2]!);
    expect(onReveal).toHaveBeenCalledTimes(1);
    expect(onReveal).toHaveBeenCalledWith(template.findings[2]);
  });

  it("reveals from the keyboard too", async () => {
    const user = userEvent.setup();
    const onReveal = vi.fn();
    render(<FindingsPanel findings={template.findings} onReveal={onReveal} />);
    await user.tab();
    await user.tab();
    await user.keyboard("{Enter}");
    expect(onReveal).toHaveBeenCalledWith(template.findings[1]);
  });

  it("says when the packet passes every check, and shows nothing while the checks load", () => {
    const { rerender } = render(<FindingsPanel findings={[]} onReveal={() => {}} />);
    expect(screen.getByText("No findings: the packet passes every check.")).toBeTruthy();
    rerender(<FindingsPanel findings={null} onReveal={() => {}} />);
    expect(screen.queryByText(/No findings/)).toBeNull();
    expect(screen.getByRole("heading").textContent).toBe("Findings ");
  });
});
