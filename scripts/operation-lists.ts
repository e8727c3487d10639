/**
 * The lists the app and the agent are built from, read from the folders of src/operations
 * (docs/architecture.md, "Adding an operation"), so that no file is edited only to pass an
 * operation's name along. Every folder but shared/ is one operation, named by its operationId in
 * kebab case (pin-memory/ is pinMemory); its route.ts exports the endpoint under that name
 * (`export const pinMemory: Endpoint`, or `export function callTool(tools: Tools): Endpoint` for an
 * endpoint over the other operations' tools), and its task.ts, when it queues work, the task kind
 * `pinMemoryTask`. A folder whose files do not export those names is refused here.
 *
 * Written by `npm run generate:sdk` (scripts/generate-sdk.ts) before the SDK module, and checked
 * current by `--check` (CI, and test-e2e/generated.test.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface GeneratedFile {
  /** Relative to the repository's root. */
  path: string;
  text: string;
}

interface Operation {
  folder: string;
  name: string;
  /** Its route.ts exports a function of the tools rather than an endpoint. */
  overTools: boolean;
  hasTask: boolean;
}

const OPERATIONS_DIR = "src/operations";
const SHARED = "shared";

const camelCase = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function readOperations(root: string): Operation[] {
  const dir = path.join(root, OPERATIONS_DIR);
  return readdirSync(dir)
    .filter((entry) => entry !== SHARED && statSync(path.join(dir, entry)).isDirectory())
    .sort()
    .map((folder) => {
      const name = camelCase(folder);
      const routeFile = path.join(dir, folder, "route.ts");
      if (!existsSync(routeFile)) throw new Error(`${OPERATIONS_DIR}/${folder}: an operation has a route.ts`);
      const route = readFileSync(routeFile, "utf8");
      const endpoint = new RegExp(`^export const ${name}: Endpoint\\b`, "m").test(route);
      const overTools = new RegExp(`^export function ${name}\\(tools: Tools\\): Endpoint\\b`, "m").test(route);
      if (!endpoint && !overTools)
        throw new Error(
          `${OPERATIONS_DIR}/${folder}/route.ts: exports its endpoint as \`export const ${name}: Endpoint\` (the folder names the operationId)`,
        );
      const taskFile = path.join(dir, folder, "task.ts");
      const hasTask = existsSync(taskFile);
      if (hasTask && !new RegExp(`^export const ${name}Task\\b`, "m").test(readFileSync(taskFile, "utf8")))
        throw new Error(`${OPERATIONS_DIR}/${folder}/task.ts: exports its task kind as \`export const ${name}Task\``);
      return { folder, name, overTools, hasTask };
    });
}

const HEADER = (what: string) =>
  `/**\n * ${what} Written by \`npm run generate:sdk\` from the folders of src/operations\n * (scripts/operation-lists.ts): do not edit; add an operation's folder and run it again.\n */\n`;

function tasksFile(operations: readonly Operation[]): string {
  const withTask = operations.filter((o) => o.hasTask);
  return [
    HEADER("Every operation's task kind, named by its operationId (the agent's kinds: src/agent/agent-tasks.ts)."),
    ...withTask.map((o) => `import { ${o.name}Task } from "./${o.folder}/task";\n`),
    "\nexport const OPERATION_TASKS = {\n",
    ...withTask.map((o) => `  ${o.name}: ${o.name}Task,\n`),
    "} as const;\n",
  ].join("");
}

function endpointsFile(operations: readonly Operation[]): string {
  const endpoints = operations.filter((o) => !o.overTools);
  const overTools = operations.filter((o) => o.overTools);
  return [
    HEADER("Every operation's endpoint (its route, schemas and tool entry), mounted in its area by src/routes/index.ts."),
    'import type { Endpoint } from "../surfaces/endpoint";\n',
    'import type { Tools } from "../surfaces/tool-catalog";\n',
    ...operations.map((o) => `import { ${o.name} } from "../operations/${o.folder}/route";\n`),
    "\n/** The operations' endpoints, by operationId. */\n",
    `export const ENDPOINTS: readonly Endpoint[] = [\n${endpoints.map((o) => `  ${o.name},\n`).join("")}];\n`,
    "\n/** The endpoints over the other operations' tools (function calling, tool calls, MCP). */\n",
    `export const TOOL_ENDPOINTS: readonly ((tools: Tools) => Endpoint)[] = [${overTools.map((o) => o.name).join(", ")}];\n`,
  ].join("");
}

/** The generated lists, from the operation folders under `root`. */
export function operationLists(root: string): GeneratedFile[] {
  const operations = readOperations(root);
  return [
    { path: `${OPERATIONS_DIR}/operation-tasks.ts`, text: tasksFile(operations) },
    { path: "src/routes/endpoints.ts", text: endpointsFile(operations) },
  ];
}
