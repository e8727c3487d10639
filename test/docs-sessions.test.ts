/**
 * The documentation's shell sessions run as shown (issue 26, "docs that cannot drift"): every
 * ```` ```sh docs-test ```` block of README.md, docs/ and sdk/README.md, command by command, in
 * order, against the Worker, each output compared with the `# ` lines shown after it (task ids
 * and dates masked, line breaks and indentation ignored, `…` for the rest: test/docs-blocks.ts).
 *
 * The commands are what a reader types: shell variables (`KEY='…'`, `A=…`, `"$KEY"`, `$A/…`), and
 * curl with -s, -X, -H, -d, -o and --data-binary @file. They are read by a small shell of their
 * own and sent with SELF.fetch, so the sessions run in the Workers pool; anything else in a marked
 * block fails the test (a new kind of command needs its reader here). The blocks that need Node
 * (MCP hosts, SDK programs) are run by test-e2e/docs.test.ts.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import readme from "../README.md?raw";
import benchmarks from "../docs/BENCHMARKS.md?raw";
import architecture from "../docs/architecture.md?raw";
import deploy from "../docs/deploy.md?raw";
import design from "../docs/design.md?raw";
import webView from "../docs/web-view.md?raw";
import sdkReadme from "../sdk/README.md?raw";
import { blocksOf, matchesDocumented, sessionOf, type Block } from "./docs-blocks";

const DOCS: Record<string, string> = {
  "README.md": readme,
  "sdk/README.md": sdkReadme,
  "docs/architecture.md": architecture,
  "docs/BENCHMARKS.md": benchmarks,
  "docs/deploy.md": deploy,
  "docs/design.md": design,
  "docs/web-view.md": webView,
};

const SESSIONS = Object.entries(DOCS)
  .flatMap(([file, text]) => blocksOf(file, text))
  .filter((b) => b.marker === "docs-test" && b.lang === "sh");

/** A command's words as the shell gives them to the program, per `;`-separated statement. */
export function statementsOf(command: string, vars: ReadonlyMap<string, string>): string[][] {
  const statements: string[][] = [[]];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) statements.at(-1)?.push(word);
    word = undefined;
  };
  const variable = (from: number): [string, number] => {
    const name = /^[A-Za-z_]\w*/.exec(command.slice(from))?.[0] ?? "";
    if (name === "") return ["$", from];
    const value = vars.get(name);
    if (value === undefined) throw new Error(`unset shell variable $${name}`);
    return [value, from + name.length];
  };
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] ?? "";
    if (c === "\\" && command[i + 1] === "\n") {
      i += 1;
    } else if (c === "#" && word === undefined) {
      while (i < command.length && command[i] !== "\n") i += 1;
    } else if (/\s/.test(c)) {
      end();
    } else if (c === ";") {
      end();
      statements.push([]);
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed quote in ${command}`);
      word = (word ?? "") + command.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      word ??= "";
      for (i += 1; i < command.length && command[i] !== '"'; i += 1) {
        if (command[i] === "$") {
          const [value, next] = variable(i + 1);
          word += value;
          i = next - 1;
        } else if (command[i] === "\\" && /["\\$]/.test(command[i + 1] ?? "")) {
          i += 1;
          word += command[i];
        } else word += command[i];
      }
    } else if (c === "$") {
      const [value, next] = variable(i + 1);
      word = (word ?? "") + value;
      i = next - 1;
    } else {
      word = (word ?? "") + c;
    }
  }
  end();
  return statements.filter((s) => s.length > 0);
}

/** What curl -s prints for one command (a body written with -o goes to `files`). */
async function curl(args: readonly string[], files: Map<string, string>): Promise<string> {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  let out: string | undefined;
  const headers = new Headers();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? "";
    const value = () => {
      i += 1;
      const v = args[i];
      if (v === undefined) throw new Error(`curl ${arg} without a value`);
      return v;
    };
    if (arg === "-s") continue;
    else if (arg === "-X") method = value();
    else if (arg === "-H") {
      const header = value();
      const colon = header.indexOf(":");
      headers.set(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
    } else if (arg === "-d") body = value();
    else if (arg === "--data-binary") {
      const ref = value();
      const file = ref.startsWith("@") ? files.get(ref.slice(1)) : ref;
      if (file === undefined) throw new Error(`curl: no file ${ref}`);
      body = file;
    } else if (arg === "-o") out = value();
    else if (!arg.startsWith("-") && url === undefined) url = arg;
    else throw new Error(`curl option ${arg} is not read by this test`);
  }
  if (url === undefined) throw new Error("curl without a URL");
  // curl -d sends a form type unless told otherwise; the README always says.
  const res = await SELF.fetch(url, { method: method ?? (body === undefined ? "GET" : "POST"), headers, body });
  const text = await res.text();
  if (out === undefined) return text;
  files.set(out, text);
  return "";
}

async function runSession(block: Block): Promise<{ compared: number; commands: number }> {
  const vars = new Map<string, string>();
  const files = new Map<string, string>();
  const steps = sessionOf(block.text);
  let compared = 0;
  for (const step of steps) {
    let output = "";
    for (const words of statementsOf(step.command, vars)) {
      const [program, ...args] = words;
      const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(program ?? "");
      if (assignment && args.length === 0) vars.set(assignment[1] ?? "", assignment[2] ?? "");
      else if (program === "curl") output += await curl(args, files);
      else throw new Error(`${block.file}:${block.line}: the command ${program} is not read by this test`);
    }
    if (step.expected.length === 0) continue;
    const documented = step.expected.join("\n");
    expect.soft(matchesDocumented(output, documented), `${step.command}\n--- documented\n${documented}\n--- got\n${output}`).toBe(true);
    compared += 1;
  }
  return { compared, commands: steps.length };
}

describe("the documentation's shell sessions", () => {
  it("reads the shell the way bash does", () => {
    const vars = new Map([
      ["KEY", "Authorization: Bearer k"],
      ["A", "http://h/v1/agents/notes"],
    ]);
    expect(statementsOf(`curl -s -X POST $A/recall -H "$KEY" \\\n  -d '{"q": "$A"}'   # a comment`, vars)).toEqual([
      ["curl", "-s", "-X", "POST", "http://h/v1/agents/notes/recall", "-H", "Authorization: Bearer k", "-d", '{"q": "$A"}'],
    ]);
    expect(statementsOf(`K='a b'; J="$A-copy"`, vars)).toEqual([["K=a b"], ["J=http://h/v1/agents/notes-copy"]]);
    expect(() => statementsOf("curl $UNSET", vars)).toThrow(/unset/);
    expect(matchesDocumented('{"a":1,"b":"tsk_abcdefghij","c":[2,3]}', '{"a":1,"b":"tsk_…",\n  "c":[2,…]}')).toBe(true);
    expect(matchesDocumented('{"a":2}', '{"a":1}')).toBe(false);
    expect(matchesDocumented("[memory] x\n---\n[memory] y", "[memory] x\n---\n[memory] y")).toBe(true);
    expect(matchesDocumented("[memory] x", "[记忆] x")).toBe(false);
  });

  it("finds the sessions", () => {
    expect(SESSIONS.map((b) => `${b.file}:${b.line}`).length).toBeGreaterThanOrEqual(2);
  });

  for (const block of SESSIONS) {
    it(`${block.file}:${block.line} runs as shown`, { timeout: 120_000 }, async () => {
      const { compared, commands } = await runSession(block);
      console.log(`${block.file}:${block.line}: ${commands} commands, ${compared} outputs compared`);
      expect(compared).toBeGreaterThan(0);
    });
  }
});
