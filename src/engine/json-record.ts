import { z } from "zod";
import { parseJsonOrUndefined } from "../storage/row-parsing";

const JsonRecord = z.record(z.string(), z.unknown());

/** A stored JSON object (a task's result), or null when absent or not an object. */
export function parseJsonRecord(raw: string | null): Record<string, unknown> | null {
  if (raw === null) return null;
  const parsed = JsonRecord.safeParse(parseJsonOrUndefined(raw));
  return parsed.success ? parsed.data : null;
}
