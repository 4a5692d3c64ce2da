import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE, parsePacket, renderPacket } from "../../lib/packets";
import { PacketForm } from "../../components/packets/packet-form";

const emptied = (template: string) => {
  const doc = parsePacket(template);
  return renderPacket({ ...doc, fields: doc.fields.map((f) => ({ ...f, value: "" })), sections: doc.sections.map((s) => ({ ...s, body: "" })) });
};

/** The editor's side of the form: the shared markdown, written on every change and passed back in. */
function Harness({ initial, onStored }: { initial: string; onStored: (md: string) => void }) {
  const [markdown, setMarkdown] = useState(initial);
  return (
    <PacketForm
      markdown={markdown}
      findings={[]}
      onReveal={() => undefined}
      onMarkdown={(next) => {
        setMarkdown(next);
        onStored(next);
      }}
    />
  );
}

function setup(template: string) {
  const stored = { markdown: emptied(template) };
  render(<Harness initial={stored.markdown} onStored={(md) => (stored.markdown = md)} />);
  return stored;
}

describe("PacketForm typed key by key", () => {
  it("stores a Task with its spaces", async () => {
    const stored = setup(PACKET_TEMPLATE);
    await userEvent.type(screen.getByLabelText("Task"), "Retry a failed export job");
    expect(screen.getByLabelText("Task")).toHaveProperty("value", "Retry a failed export job");
    expect(parsePacket(stored.markdown).fields[0]!.value).toBe("Retry a failed export job");
  });

  it("stores a section's lines with their newlines", async () => {
    const stored = setup(PACKET_TEMPLATE);
    const box = screen.getByLabelText("Constraints");
    await userEvent.type(box, "- one{Enter}- two{Enter}{Enter}- three ");
    expect(box).toHaveProperty("value", "- one\n- two\n\n- three ");
    expect(parsePacket(stored.markdown).sections.find((s) => s.title === "Constraints")!.body).toBe("- one\n- two\n\n- three");
  });

  it("stores a brief's Summary and sections as typed", async () => {
    const stored = setup(BRIEF_TEMPLATE);
    await userEvent.type(screen.getByLabelText("Summary"), "Exports stop after ünïcode names ");
    expect(screen.getByLabelText("Summary")).toHaveProperty("value", "Exports stop after ünïcode names ");
    const doc = parsePacket(stored.markdown);
    expect(doc.fields.find((f) => f.label === "Summary")!.value).toBe("Exports stop after ünïcode names");
  });
});
