import type { Command } from "commander";

export function registerPack(program: Command, setCode: (c: number) => void): void {
  const pack = program.command("pack").description("Context Packets and Agent Briefs (context-pack): check them before a handoff.");
  pack
    .command("validate")
    .description(
      "Run the context-pack checks (smell tests, section gates, token cap, brief gates) on a packet or brief file. Exit 0 when it may be emitted, 1 when a BLOCK finding refuses it, 2 when the file cannot be validated.",
    )
    .argument("<file>", "markdown file holding a ## Context Packet or ## Agent Brief")
    .option("--json", "print the validation result (packet, token_estimate, task_tokens, completeness, warnings, findings, emittable) as JSON")
    .option("--task-tokens <n>", "size of the delegated task in tokens, for the Type Surface gate (task >= 300 tokens); without it the packet's own token estimate is used")
    .action(async (file: string, opts: { json?: boolean; taskTokens?: string }) => {
      const { runPackValidate } = await import("./pack-validate");
      await runPackValidate(file, opts, setCode);
    });
}
