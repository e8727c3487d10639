/** Reading a task's saved progress: parsed with its schema; one that cannot be read fails the task. */
import type { z } from "zod";
import { parseJsonOrUndefined } from "../storage/row-parsing";
import { PermanentTaskError } from "./task-errors";

export function readCheckpoint<T>(task: { checkpoint: string | null }, schema: z.ZodType<T>): T | undefined {
  if (task.checkpoint === null) return undefined;
  const parsed = schema.safeParse(parseJsonOrUndefined(task.checkpoint));
  if (!parsed.success) throw new PermanentTaskError(`unreadable checkpoint: ${parsed.error.message}`);
  return parsed.data;
}
