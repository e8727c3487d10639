// The SDK's documentation in code: every public function and method of the published client
// (what sdk/src/index.ts exports: functions, the methods of its classes, generated ones included,
// and the service binding's interface) has an `@example`, and every example type-checks against
// the SDK's sources, as a program of its own in which `memory` (a MemoryClient), `agent` (one
// agent's client) and `env.MEMORY` (a service binding) are given. The README's blocks are run by
// test-e2e/docs.test.ts; these are checked by the compiler.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..", "..");
const SDK = path.join(ROOT, "sdk", "src");
const INDEX = path.join(SDK, "index.ts");

const PRELUDE = `import { MemoryClient, type AgentClient, type MemoryBinding } from "@agent-memory/sdk";
declare const memory: MemoryClient;
declare const agent: AgentClient;
declare const env: { MEMORY: MemoryBinding };
`;

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmit: true,
  paths: { "@agent-memory/sdk": [INDEX] },
};

const sdkProgram = ts.createProgram([INDEX], OPTIONS);
const checker = sdkProgram.getTypeChecker();

interface Documented {
  /** `Class.method`, `function` or `MemoryBinding.method`. */
  name: string;
  /** The code of each `@example`, fences and comment stars removed. */
  examples: string[];
}

/** The code of a declaration's `@example` tags. */
function examplesOf(node: ts.Node): string[] {
  return ts
    .getJSDocTags(node)
    .filter((tag) => tag.tagName.text === "example")
    .map((tag) => ts.getTextOfJSDocComment(tag.comment) ?? "")
    .map((text) => text.replace(/^\s*```\w*\n?/, "").replace(/\n?```\s*$/, ""));
}

/** Every public function and method the SDK's index exports, with its examples. */
function publicSurface(): Documented[] {
  const index = sdkProgram.getSourceFile(INDEX);
  const module = index && checker.getSymbolAtLocation(index);
  if (!module) throw new Error("sdk/src/index.ts not found");
  const out: Documented[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    for (const declaration of symbol.declarations ?? []) {
      if (ts.isFunctionDeclaration(declaration) && declaration.body !== undefined) {
        const overloads = (symbol.declarations ?? []).filter(ts.isFunctionDeclaration);
        out.push({ name: exported.name, examples: overloads.flatMap(examplesOf) });
      } else if (ts.isTypeAliasDeclaration(declaration)) {
        // A type of methods made from a generated list (MemoryBinding from RPC_METHODS): each method's
        // examples are on the declaration it comes from (the list's entry, or a member written out).
        for (const property of checker.getPropertiesOfType(checker.getTypeAtLocation(declaration))) {
          const own = (property.declarations ?? []).some((d) => path.normalize(d.getSourceFile().fileName).startsWith(SDK));
          if (!own || checker.getSignaturesOfType(checker.getTypeOfSymbol(property), ts.SignatureKind.Call).length === 0) continue;
          out.push({ name: `${exported.name}.${property.name}`, examples: (property.declarations ?? []).flatMap(examplesOf) });
        }
      } else if (ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)) {
        for (const member of declaration.members) {
          if (!(ts.isMethodDeclaration(member) || ts.isMethodSignature(member)) || member.name === undefined) continue;
          const modifiers = ts.getCombinedModifierFlags(member);
          if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
          if (ts.isMethodDeclaration(member) && member.body === undefined) continue; // an overload: its implementation holds the docs
          const name = `${exported.name}.${member.name.getText()}`;
          const overloads = declaration.members.filter((m) => m.name?.getText() === member.name?.getText());
          out.push({ name, examples: overloads.flatMap(examplesOf) });
        }
      }
    }
  }
  return out;
}

describe("the SDK's examples", () => {
  const surface = publicSurface();

  it("finds the SDK's public surface: the clients, their generated operations, the helpers and the binding", () => {
    const names = new Set(surface.map((d) => d.name));
    for (const name of ["MemoryClient.agent", "AgentOperations.remember", "ServiceOperations.listAgents", "ContextWindow.prepare"])
      expect(names, name).toContain(name);
    for (const name of ["formatTools", "unwrap", "MemoryBinding.recall", "AgentClient.handleToolCall"]) expect(names, name).toContain(name);
  });

  it("has an @example on every public function and method", () => {
    expect(surface.filter((d) => d.examples.length === 0).map((d) => d.name)).toEqual([]);
  });

  it("type-checks every example against the SDK, with memory, agent and env.MEMORY given", () => {
    const files = new Map<string, string>();
    surface.forEach((d, i) =>
      d.examples.forEach((code, k) => {
        const lines = code.split("\n");
        const imports = lines.filter((l) => l.startsWith("import "));
        const body = lines.filter((l) => !l.startsWith("import "));
        files.set(path.join(ROOT, ".examples", `${i}-${k}-${d.name}.ts`), [...imports, PRELUDE, ...body, "export {};"].join("\n"));
      }),
    );
    expect(files.size).toBeGreaterThanOrEqual(surface.length);
    const host = ts.createCompilerHost(OPTIONS);
    const read = host.readFile.bind(host);
    const exists = host.fileExists.bind(host);
    host.readFile = (file) => files.get(path.normalize(file)) ?? read(file);
    host.fileExists = (file) => files.has(path.normalize(file)) || exists(file);
    const program = ts.createProgram([...files.keys()], OPTIONS, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(problems).toEqual([]);
  });
});
