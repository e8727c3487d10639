/**
 * The documentation's runnable examples (issue 26, "docs that cannot drift"): fenced blocks marked
 * `docs-test` in their info string (```` ```sh docs-test ````), a shell session's commands with the
 * output shown after each, and the comparison of a documented output with a real one. Pure: used
 * by test/docs-sessions.test.ts (the shell sessions, in the Workers pool) and
 * test-e2e/docs.test.ts (MCP configurations and SDK programs, in Node).
 */

export interface Block {
  file: string;
  line: number;
  lang: string;
  /** `docs-test` or `docs-test:<variant>`; undefined for a block not run. */
  marker: string | undefined;
  text: string;
}

export function blocksOf(file: string, markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*(\S*)\s*$/.exec(lines[i] ?? "");
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i] ?? ""); i += 1) body.push(lines[i] ?? "");
    const marker = open[2]?.startsWith("docs-test") ? open[2] : undefined;
    blocks.push({ file, line: start + 1, lang: open[1] ?? "", marker, text: body.join("\n") });
  }
  return blocks;
}

/** A block that talks to the local server or uses the SDK: it must be marked. */
export function needsMarker(block: Block): boolean {
  return /curl [^\n]*(127\.0\.0\.1:8787|\$A\b)/.test(block.text) || block.text.includes("@agent-memory/sdk");
}

export interface Step {
  command: string;
  /** The `# ` lines right after the command: its output (none: it must only succeed). */
  expected: string[];
}

/**
 * A shell block's commands, each continued over lines ending in `\` or inside an open single
 * quote, with the `# ` lines that follow it directly; a blank line ends an output, so a comment
 * after one explains the next command.
 */
export function sessionOf(text: string): Step[] {
  const steps: Step[] = [];
  const lines = text.split("\n");
  let collecting: Step | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      collecting = undefined;
      continue;
    }
    if (line.startsWith("#")) {
      if (collecting) collecting.expected.push(line.replace(/^# ?/, ""));
      continue;
    }
    let command = line;
    while ((/\\$/.test(command) || (command.match(/'/g)?.length ?? 0) % 2 === 1) && i + 1 < lines.length) {
      i += 1;
      command += `\n${lines[i] ?? ""}`;
    }
    collecting = { command, expected: [] };
    steps.push(collecting);
  }
  return steps;
}

/** Line breaks and indentation ignored; task ids and dates (which change from run to run) masked. */
function normalise(text: string): string {
  return text
    .split("\n")
    .map((l) => l.trim())
    .join("")
    .replace(/tsk_[A-Za-z0-9]{8,40}/g, "tsk_#")
    .replace(/\d{4}-\d{2}(-\d{2})?/g, "#date");
}

/** Whether an output is the documented one: `…` in the documented output stands for anything. */
export function matchesDocumented(actual: string, documented: string): boolean {
  const pattern = normalise(documented)
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*?");
  return new RegExp(`^${pattern}$`, "s").test(normalise(actual));
}
