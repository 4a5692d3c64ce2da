import fs from "node:fs";
import path from "node:path";
import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE, validatePacket } from "../../../lib/packets";
import { packetTokens } from "../../../lib/packets/token-count";
import { mulberry32 } from "../../helpers/prng";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");

// Whatever makes the pre-tokenizer's pieces interesting around line breaks: spaces before
// and after newlines, CRLF, punctuation runs that absorb newlines, digits, contractions,
// letters of other scripts, emoji (surrogate pairs), and "<|" before letters.
const PIECES = [
  "word",
  " word",
  "Émile",
  "日本語",
  "42",
  "12345",
  "'s",
  "'LL",
  ".",
  "...",
  "!?",
  "`",
  "(",
  ")",
  " ",
  "  ",
  "\t",
  "\n",
  "\n\n",
  " \n",
  "\n ",
  "\r\n",
  ".\n",
  "-\n",
  "\n- ",
  "\n### ",
  "🚀",
  "<|",
  "<|end",
  "|>",
  "_",
];

describe("packetTokens: countTokens, counted in chunks", () => {
  it("equals countTokens on the fixtures and templates, repeated to many chunks", () => {
    for (const text of [PACKET_TEMPLATE, BRIEF_TEMPLATE, fixture("clean-packet.md"), fixture("failing-packet.md"), fixture("clean-brief.md")]) {
      for (const n of [1, 3, 10]) {
        const t = text.repeat(n);
        expect(packetTokens(t)).toBe(countTokens(t));
        const crlf = t.replace(/\n/g, "\r\n");
        expect(packetTokens(crlf)).toBe(countTokens(crlf));
      }
    }
  });

  it("equals countTokens on 400 random texts of 1–6 KB", () => {
    const rand = mulberry32(11);
    for (let i = 0; i < 400; i++) {
      const parts: string[] = [];
      let len = 0;
      const target = 1000 + Math.floor(rand() * 5000);
      while (len < target) {
        const p = PIECES[Math.floor(rand() * PIECES.length)]!;
        // "<|" + letters may spell a special token, which countTokens refuses: compared below.
        if (p.startsWith("<|")) continue;
        parts.push(p);
        len += p.length;
      }
      const text = parts.join("");
      expect(packetTokens(text), JSON.stringify(text.slice(0, 80))).toBe(countTokens(text));
    }
  });

  it("counts special-token texts as the ordinary text they are, as countTokens does", () => {
    const enc = getEncoding("cl100k_base");
    const ordinary = (t: string) => enc.encode(t, [], []).length;
    const rand = mulberry32(5);
    for (let i = 0; i < 200; i++) {
      const parts = Array.from({ length: 50 + Math.floor(rand() * 400) }, () => PIECES[Math.floor(rand() * PIECES.length)]!);
      parts.splice(Math.floor(rand() * parts.length), 0, ["<|endoftext|>", "<|fim_prefix|>", "x<|endofprompt|>\n"][i % 3]!);
      const text = parts.join("");
      expect(packetTokens(text), JSON.stringify(text.slice(0, 80))).toBe(ordinary(text));
    }
    expect(countTokens("<|endoftext|>")).toBe(ordinary("<|endoftext|>"));
    const v = validatePacket("## Context Packet\n\n**Task**: returns the text after <|endoftext|>\n");
    expect(v.token_estimate).toBe(ordinary(v.packet));
  });
});
