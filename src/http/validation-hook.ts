/**
 * The one validation-error hook shared by every route: zod issues become a 400 envelope listing
 * each issue's place (body, query, path, header), path and message; issues marked TOO_LARGE make
 * it a 413. An unknown field is reported as its own issue at the field's path, so the message
 * names it ("messages.0.mood: unknown field").
 */
import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import type { AppEnv } from "./app-env";
import { errorResponse, TOO_LARGE } from "./errors";

/** Where a validated value came from, in the client's words. */
const PLACES: Record<string, string> = { json: "body", form: "body", query: "query", param: "path", header: "header", cookie: "cookie" };

export interface IssueDetail {
  in: string;
  path: string;
  message: string;
}

function isTooLarge(issue: z.core.$ZodIssue): boolean {
  return issue.code === "custom" && issue.params?.[TOO_LARGE] === true;
}

function details(issue: z.core.$ZodIssue, place: string): IssueDetail[] {
  const at = (path: readonly PropertyKey[]) => path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ in: place, path: at([...issue.path, key]), message: "unknown field" }));
  }
  return [{ in: place, path: at(issue.path), message: issue.message }];
}

export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  const place = PLACES[result.target] ?? result.target;
  const issues = result.error.issues.flatMap((issue) => details(issue, place));
  const first = issues[0];
  const where = place === "body" ? "" : `${place} `;
  const summary = first ? `${where}${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid request";
  const code = result.error.issues.some(isTooLarge) ? "payload_too_large" : "validation_failed";
  return errorResponse(c, code, summary, { details: { issues } });
};
