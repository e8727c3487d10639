/** The answers shared by operations that wait for their task (docs/design.md, "Memory operations"). */
import { z } from "@hono/zod-openapi";
import type { Submitted } from "../agent/client";
import { jsonAnswer } from "./common-schemas";

/** How long an operation whose result the caller needs waits for its task before answering 202. */
export const OPERATION_WAIT_MS = 25_000;

export const PendingSchema = z
  .object({ task_id: z.string(), status: z.enum(["queued", "running"]) })
  .openapi("Pending", { description: "Queued behind earlier writes and not applied yet: follow the task." });

/** The 202 answer of such an operation. */
export const PENDING_ANSWER = jsonAnswer(PendingSchema, "Accepted and queued behind earlier writes: follow the task");

/** 202: the task is queued behind earlier writes (or still running) when the wait ran out. */
export function pendingBody(outcome: Submitted<unknown>): { task_id: string; status: "queued" | "running" } {
  return { task_id: outcome.taskIds[0] ?? "", status: outcome.status === "running" ? "running" : "queued" };
}

/** A task that failed for good is the service's failure, not the caller's (mapped to 500 by the error handler). */
export function whenFailed(outcome: Submitted<unknown>, kind: string): void {
  if (outcome.status === "failed") throw new Error(`${kind} failed: ${outcome.error ?? "unknown error"}`);
}
