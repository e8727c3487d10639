/**
 * The documentation's examples that need Node (issue 26, "docs that cannot drift"): of the fenced
 * blocks of README.md, docs/*.md and sdk/README.md marked `docs-test` (test/docs-blocks.ts), the MCP
 * host configurations and the SDK programs, against the local Worker of the e2e suite. The shell
 * sessions are run by test/docs-sessions.test.ts.
 *
 * - `json docs-test:mcp`: an MCP host's configuration; the official MCP client connects with its
 *   url and headers, lists the tools and calls one.
 * - `ts docs-test`: an SDK program, run with tsx (`@agent-memory/sdk` is the repository's sdk/);
 *   `ts docs-test:<prelude>` first defines the names a fragment takes as given (PRELUDES below).
 *   Its `// → ` lines are what it must print.
 * - `ts docs-test:binding`: code of a Worker that calls the memory through its service binding
 *   (`env.MEMORY`); it cannot run outside workerd, so it is type-checked as a function body against
 *   the SDK's `MemoryBinding` (examples/rpc-worker, run by test-e2e/rpc-binding.test.ts, is the
 *   running one).
 *
 * And every block that calls the local server or imports the SDK is marked: an example cannot be
 * added without being run. The URL http://127.0.0.1:8787 is the test server's.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, inject, it } from "vitest";
import { blocksOf, needsMarker, type Block } from "../test/docs-blocks";

const ROOT = path.join(import.meta.dirname, "..");
const DOC_URL = "http://127.0.0.1:8787";
const DOCS = [
  "README.md",
  "sdk/README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

const ALL = DOCS.flatMap((file) => blocksOf(file, readFileSync(path.join(ROOT, file), "utf8")));
const MARKED = ALL.filter((b) => b.marker !== undefined);
const BINDING = MARKED.filter((b) => b.marker === "docs-test:binding");
const IN_NODE = MARKED.filter((b) => b.lang !== "sh" && b.marker !== "docs-test:binding");
const where = (b: Block) => `${b.file}:${b.line}`;

const work = mkdtempSync(path.join(tmpdir(), "agent-memory-docs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a fragment takes as given: an agent of its own, a conversation, a model that asks for one tool call (and its reply). */
const AGENT_PRELUDE = `
const memory = new MemoryClient({ baseUrl: process.env.MEMORY_URL ?? "", apiKey: "dev-key-local-only" });
const agent = memory.agent("docs-fragment");
const conversation: { role: "user" | "assistant" | "tool"; content: string; tool_call_id?: string }[] = [];
const userText = "Remind me: Ines moved to Porto in May.";
const model = async (_messages: unknown[], _options: unknown) => ({
  tool_calls: [{ id: "call_1", type: "function" as const, function: { name: "recall", arguments: '{"query":"Where does Ines live?"}' } }],
});
`;

const PRELUDES: Readonly<Record<string, string>> = {
  agent: AGENT_PRELUDE,
  reply: `${AGENT_PRELUDE}const reply = await model([], {});\n`,
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

/** A binding fragment as a module: its imports, `env` with the binding, the rest as a function body. */
function bindingModule(block: Block, sdk: string): string {
  const lines = block.text.replaceAll('"@agent-memory/sdk"', JSON.stringify(sdk)).split("\n");
  const imports = lines.filter((l) => l.startsWith("import "));
  const body = lines.filter((l) => !l.startsWith("import "));
  return [
    ...imports,
    `import type { MemoryBinding as DocsBinding } from ${JSON.stringify(sdk)};`,
    "declare const env: { MEMORY: DocsBinding };",
    "export async function docsBlock(): Promise<Response | void> {",
    ...body,
    "}",
  ].join("\n");
}

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
  it("every block that calls the local server or imports the SDK is marked docs-test; every marked block has a runner", () => {
    expect(ALL.filter((b) => b.marker === undefined && needsMarker(b)).map(where)).toEqual([]);
    const runnable = (b: Block) => b.lang === "sh" || b.lang === "ts" || (b.lang === "json" && b.marker === "docs-test:mcp");
    expect(MARKED.filter((b) => !runnable(b)).map(where)).toEqual([]);
    console.log(`docs-test blocks: ${MARKED.length} (${MARKED.length - IN_NODE.length} shell sessions, ${IN_NODE.length} here)`);
  });

  it("the service-binding fragments type-check against the SDK's MemoryBinding", () => {
    expect(BINDING.length).toBeGreaterThan(0);
    const dir = mkdtempSync(path.join(work, "binding-"));
    const sdk = path.join(ROOT, "sdk", "src", "index.ts");
    const files = BINDING.map((block) => {
      const file = `block-${block.file.replace(/\W/g, "_")}-${block.line}.ts`;
      writeFileSync(path.join(dir, file), bindingModule(block, sdk));
      return file;
    });
    const compilerOptions = { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" };
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { ...compilerOptions, lib: ["es2022", "dom"], types: [], allowImportingTsExtensions: true },
        files,
      }),
    );
    const tsc = path.join(ROOT, "node_modules", "@typescript", "native", "bin", "tsc");
    const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(run.status, `${BINDING.map(where).join(", ")}:\n${run.stdout}${run.stderr}`).toBe(0);
  });

  for (const block of IN_NODE) {
    it(`${where(block)} (${block.lang} ${block.marker})`, async () => {
      const baseUrl = inject("baseUrl");
      if (block.lang === "json") {
        const config = JSON.parse(block.text) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
        for (const server of Object.values(config.mcpServers)) {
          const client = new Client({ name: "docs-test", version: "1.0.0" });
          const url = new URL(server.url.replace(DOC_URL, baseUrl));
          await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: server.headers } }));
          const { tools } = await client.listTools();
          // As many as the README says there are.
          const stated = /the same (\d+) on MCP/.exec(readFileSync(path.join(ROOT, "README.md"), "utf8"))?.[1];
          expect(tools.length).toBe(Number(stated));
          const stats = await client.callTool({ name: "get_stats", arguments: {} });
          expect(stats.isError ?? false).toBe(false);
          await client.close();
        }
      } else {
        const output = runProgram(block, baseUrl);
        const promised = block.text
          .split("\n")
          .filter((l) => l.startsWith("// → "))
          .map((l) => l.slice("// → ".length));
        for (const line of promised) expect(output, where(block)).toContain(line);
      }
    });
  }
});
