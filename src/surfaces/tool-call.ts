/**
 * Executes one tool call as a model produced it (POST tools/call and MCP tools/call): the tool by
 * name, its arguments parsed (an object or JSON text) and validated with the operation's own
 * schemas, then the operation's REST request sent in-process (in-process.ts) for the agent of the
 * outer request's path. A wrong call is refused with a message that names the argument and the
 * problem, in terms of the tool (not of HTTP), so a model can correct it; a refusal of the
 * operation itself (a missing node, a full queue) is passed on with its code.
 */
import type { z } from "zod";
import { MemoryApiError } from "../../sdk/src/errors";
import type { HttpCore } from "../../sdk/src/http";
import { argumentsSchemaOf, httpSpecOf, isTool, type OperationDefinition, type ToolSpec } from "./operation";
import type { IssueDetail } from "../http/validation-hook";
import type { ErrorCode } from "../http/errors";
import { isFramed } from "../vocabulary/frames";
import { framedToolText } from "../../sdk/src/tools";

export type ToolOutcome =
  | { ok: true; name: string; result: unknown; content: string }
  | { ok: false; code: ErrorCode; message: string; details?: unknown; retryAfterS?: number };

/** The tools a call may name, by name (the operations of src/routes that are tools). */
export type ToolBox = ReadonlyMap<string, OperationDefinition & { tool: ToolSpec }>;

/** The tools' names, in order (the enum of tools/call's `name`). */
export function toolNamesOf(definitions: readonly OperationDefinition[]): [string, ...string[]] {
  const [first, ...rest] = definitions.filter(isTool).map((d) => d.tool.name);
  if (first === undefined) throw new Error("no tools");
  return [first, ...rest];
}

export function toolBox(operations: readonly OperationDefinition[]): ToolBox {
  return new Map(operations.filter(isTool).map((d) => [d.tool.name, d]));
}

function refused(message: string, issues: IssueDetail[] = []): ToolOutcome {
  return { ok: false, code: "validation_failed", message, details: { issues } };
}

function issueDetails(issues: readonly z.core.$ZodIssue[]): IssueDetail[] {
  return issues.flatMap((issue) => {
    const at = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ in: "arguments", path: at ? `${at}.${key}` : key, message: "unknown argument" }));
    }
    return [{ in: "arguments", path: at, message: issue.message }];
  });
}

/**
 * What the model reads as the tool's result: the answer's own text when it has one (recall,
 * context), else its JSON; framed as stored memory, not instructions (src/vocabulary/frames.ts;
 * the context block carries its own frame).
 */
export function toolText(result: unknown): string {
  const text =
    typeof result === "object" && result !== null && "text" in result && typeof result.text === "string" && result.text !== ""
      ? result.text
      : JSON.stringify(result);
  return isFramed(text) ? text : framedToolText(text);
}

/** What the model reads of a refused tool call: the API's error envelope, framed (it may quote stored memory). */
export function toolErrorText(error: { code: string; message: string; details?: unknown }): string {
  return framedToolText(JSON.stringify({ error }));
}

function parseArguments(raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  if (typeof raw !== "string") return { ok: true, value: raw };
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, message: `arguments: not valid JSON (${err instanceof Error ? err.message : "parse error"})` };
  }
}

export async function runTool(
  tools: ToolBox,
  core: HttpCore,
  agentId: string,
  name: string,
  rawArguments: unknown,
  options: { idempotencyKey?: string | undefined } = {},
): Promise<ToolOutcome> {
  const definition: OperationDefinition | undefined = tools.get(name);
  if (!definition) return refused(`unknown tool ${JSON.stringify(name)}; the tools are: ${[...tools.keys()].join(", ")}`);
  const parsed = parseArguments(rawArguments);
  if (!parsed.ok) return refused(`${name}: ${parsed.message}`, [{ in: "arguments", path: "", message: parsed.message }]);
  if (typeof parsed.value !== "object" || parsed.value === null || Array.isArray(parsed.value)) {
    return refused(`${name}: arguments must be a JSON object`, [{ in: "arguments", path: "", message: "expected an object" }]);
  }
  const checked = argumentsSchemaOf(definition).safeParse(parsed.value);
  if (!checked.success) {
    const issues = issueDetails(checked.error.issues);
    const first = issues[0];
    const summary = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid arguments";
    return refused(`${name}: ${summary} (see the tool's input schema)`, issues);
  }
  const spec = httpSpecOf(definition);
  try {
    // The arguments as given (checked above): the route applies its own defaults and conversions.
    const input: Record<string, unknown> = Object.fromEntries(Object.entries(parsed.value));
    const key = spec.write ? options.idempotencyKey : undefined;
    const result = await core.call(spec, agentId, input, key === undefined ? {} : { idempotencyKey: key });
    return { ok: true, name, result, content: toolText(result) };
  } catch (err) {
    if (!(err instanceof MemoryApiError)) throw err;
    const code: ErrorCode = err.code === "unknown" ? "internal" : err.code;
    const retryAfterS = err.retryAfterMs === undefined ? undefined : Math.ceil(err.retryAfterMs / 1000);
    return {
      ok: false,
      code,
      message: `${name}: ${err.message}`,
      details: err.details,
      ...(retryAfterS === undefined ? {} : { retryAfterS }),
    };
  }
}
