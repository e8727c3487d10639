/** Parsing of JSON columns read back from D1 (a trust boundary like any other: no casts). */
import { z } from "zod";

const StringArray = z.array(z.string());
const JsonObject = z.record(z.string(), z.unknown());
const Tags = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** A JSON object column (kind-specific facts), or null when absent or not an object. */
export function parseJsonObject(raw: string | null | undefined): Readonly<Record<string, unknown>> | null {
  if (!raw) return null;
  const result = JsonObject.safeParse(parseJsonOrUndefined(raw));
  return result.success ? result.data : null;
}

/** A memory's tags (a flat JSON object of strings, numbers and booleans), or null. */
export function parseMetadata(raw: string | null | undefined): Record<string, string | number | boolean> | null {
  if (!raw) return null;
  const result = Tags.safeParse(parseJsonOrUndefined(raw));
  return result.success ? result.data : null;
}

export function parseStringArray(raw: string | null | undefined): string[] {
  if (!raw) return [];
  const result = StringArray.safeParse(parseJsonOrUndefined(raw));
  return result.success ? result.data : [];
}

/** JSON.parse that answers undefined instead of throwing (the caller then validates with zod). */
export function parseJsonOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
