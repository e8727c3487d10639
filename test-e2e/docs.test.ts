/**
 * The documentation's examples run (issue 26, "docs that cannot drift"): every fenced block of
 * README.md, docs/*.md and sdk/README.md marked `docs-test` in its info string (```` ```sh docs-test ````)
 * is executed against the local Worker of the e2e suite and its documented output compared:
 *
 * - `sh docs-test`: a shell session. Each command (continued over lines ending in `\` or inside an
 *   open quote) runs in one bash per block, in order; the `# ` lines right after it are its output.
 *   Compared after masking task ids and dates, line breaks and indentation ignored, `…` matching
 *   anything. A command with no output lines shown must only succeed.
 * - `json docs-test:mcp`: an MCP host's configuration; the official MCP client connects with its
 *   url and headers, lists the tools and calls one.
 * - `ts docs-test`: an SDK program, run with tsx (`@agent-memory/sdk` is the repository's sdk/);
 *   `ts docs-test:<prelude>` first defines the names a fragment takes as given (PRELUDES below).
 *   The `// →` comment lines after the block's last statement, if any, are what it must print.
 *
 * A block with a curl command against the local server, or an SDK import, must be marked: an
 * example cannot be added without being run. The URL http://127.0.0.1:8787 is the test server's.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, inject, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const DOC_URL = "http://127.0.0.1:8787";
const DOCS = [
  "README.md",
  "sdk/README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

interface Block {
  file: string;
  line: number;
  lang: string;
  marker: string | undefined;
  text: string;
}

function blocksOf(file: string): Block[] {
  const lines = readFileSync(path.join(ROOT, file), "utf8").split("\n");
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

const ALL = DOCS.flatMap(blocksOf);
const MARKED = ALL.filter((b) => b.marker !== undefined);
const where = (b: Block) => `${b.file}:${b.line}`;

interface Step {
  command: string;
  expected: string[];
}

/** A shell block's commands, each with the `# ` output lines that follow it directly. */
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

/** Line breaks and indentation ignored; task ids and dates masked. */
function normalise(text: string): string {
  return text
    .split("\n")
    .map((l) => l.trim())
    .join("")
    .replace(/tsk_[A-Za-z0-9]{8,40}/g, "tsk_#")
    .replace(/\d{4}-\d{2}(-\d{2})?/g, "#date");
}

function matches(actual: string, expected: string): boolean {
  const pattern = normalise(expected)
    .split("…")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*?");
  return new RegExp(`^${pattern}$`, "s").test(normalise(actual));
}

const work = mkdtempSync(path.join(tmpdir(), "agent-memory-docs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runSession(block: Block, baseUrl: string): { step: Step; output: string }[] {
  const steps = sessionOf(block.text);
  const end = (i: number) => `@@docs-test-end-${i}@@`;
  const script = steps.map((s, i) => `${s.command.replaceAll(DOC_URL, baseUrl)}\nprintf '\\n%s\\n' '${end(i)}'`).join("\n");
  const run = spawnSync("bash", ["-c", script], { cwd: work, encoding: "utf8", timeout: 120_000 });
  expect(run.status, `${where(block)}: bash\n${run.stderr}`).toBe(0);
  expect(run.stderr, where(block)).toBe("");
  let rest = run.stdout;
  return steps.map((step, i) => {
    const at = rest.indexOf(`\n${end(i)}\n`);
    const output = rest.slice(0, at);
    rest = rest.slice(at + end(i).length + 2);
    return { step, output };
  });
}

/** What a fragment takes as given: an agent of its own, a conversation, a model that asks for one tool call. */
const PRELUDES: Readonly<Record<string, string>> = {
  agent: `
const memory = new MemoryClient({ baseUrl: process.env.MEMORY_URL ?? "", apiKey: "dev-key-local-only" });
const agent = memory.agent("docs-fragment");
const conversation: { role: "user" | "assistant" | "tool"; content: string; tool_call_id?: string }[] = [];
const userText = "Remind me: Ines moved to Porto in May.";
const model = async (_messages: unknown[], _options: unknown) => ({
  tool_calls: [{ id: "call_1", type: "function" as const, function: { name: "recall", arguments: '{"query":"Where does Ines live?"}' } }],
});
const reply = await model([], {});
`,
  fetch: `
const baseUrl = process.env.MEMORY_URL ?? "";
const key = "dev-key-local-only";
const agentId = "docs-export";
const newAgentId = "docs-export-copy";
await fetch(\`\${baseUrl}/v1/agents/\${agentId}/memories\`, {
  method: "POST",
  headers: { Authorization: \`Bearer \${key}\`, "Content-Type": "application/json" },
  body: JSON.stringify({ content: "Ines moved to Porto in May." }),
});
`,
};

function runProgram(block: Block, baseUrl: string): string {
  const prelude = block.marker === "docs-test" ? "" : (PRELUDES[block.marker?.slice("docs-test:".length) ?? ""] ?? "");
  const sdk = path.join(ROOT, "sdk", "src", "index.ts");
  const imports = block.text.includes('from "@agent-memory/sdk"') ? "" : `import { MemoryClient } from "@agent-memory/sdk";\n`;
  const program = `${imports}${block.text}`.replace('"@agent-memory/sdk"', JSON.stringify(sdk));
  // The prelude goes after the imports.
  const [head, ...body] = program.split("\n");
  const source = head?.startsWith("import") ? [head, prelude, ...body].join("\n") : [prelude, program].join("\n");
  const file = path.join(work, `block-${block.file.replace(/\W/g, "_")}-${block.line}.mts`);
  writeFileSync(file, `${source.replaceAll(DOC_URL, baseUrl)}\nexport {};\n`);
  const run = spawnSync(process.execPath, ["--import", "tsx", file], {
    cwd: ROOT,
    env: { ...process.env, MEMORY_URL: baseUrl },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.status, `${where(block)}:\n${run.stderr}`).toBe(0);
  return run.stdout;
}

describe("the documentation's examples", () => {
  it("every block that calls the local server or imports the SDK is marked docs-test", () => {
    const unmarked = ALL.filter(
      (b) => b.marker === undefined && (/curl [^\n]*127\.0\.0\.1:8787|\$A\b/.test(b.text) || b.text.includes("@agent-memory/sdk")),
    );
    expect(unmarked.map(where)).toEqual([]);
    expect(MARKED.length).toBeGreaterThan(0);
  });

  for (const block of MARKED) {
    it(`${where(block)} (${block.lang} ${block.marker})`, async () => {
      const baseUrl = inject("baseUrl");
      if (block.lang === "sh") {
        const ran = runSession(block, baseUrl);
        const compared = ran.filter((r) => r.step.expected.length > 0);
        for (const { step, output } of compared) {
          const expected = step.expected.join("\n");
          expect(matches(output, expected), `${where(block)}: ${step.command}\n--- documented\n${expected}\n--- got\n${output}`).toBe(true);
        }
        console.log(`${where(block)}: ${ran.length} commands, ${compared.length} outputs compared`);
      } else if (block.lang === "json" && block.marker === "docs-test:mcp") {
        const config = JSON.parse(block.text) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
        for (const server of Object.values(config.mcpServers)) {
          const client = new Client({ name: "docs-test", version: "1.0.0" });
          const url = new URL(server.url.replace(DOC_URL, baseUrl));
          await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: server.headers } }));
          const { tools } = await client.listTools();
          expect(tools.length).toBe(24);
          const stats = await client.callTool({ name: "get_stats", arguments: {} });
          expect(stats.isError ?? false).toBe(false);
          await client.close();
        }
      } else if (block.lang === "ts") {
        const output = runProgram(block, baseUrl);
        const promised = block.text
          .split("\n")
          .filter((l) => l.startsWith("// → "))
          .map((l) => l.slice("// → ".length));
        for (const line of promised) expect(output, where(block)).toContain(line);
      } else {
        throw new Error(`${where(block)}: no runner for ${block.lang} ${block.marker}`);
      }
    });
  }
});
