/**
 * The one validation-error hook shared by every route: zod issues become a 400 envelope listing
 * each issue's path and message; issues marked TOO_LARGE make it a 413.
 */
import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import type { AppEnv } from "./app-env";
import { errorBody, TOO_LARGE } from "./errors";

function isTooLarge(issue: z.core.$ZodIssue): boolean {
  return issue.code === "custom" && issue.params?.[TOO_LARGE] === true;
}

export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) return;
  const issues = result.error.issues;
  const details = { issues: issues.map((i) => ({ path: i.path.join("."), message: i.message })) };
  const first = details.issues[0];
  const summary = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "invalid request";
  if (issues.some(isTooLarge)) return c.json(errorBody("payload_too_large", summary, details), 413);
  return c.json(errorBody("validation_failed", summary, details), 400);
};
