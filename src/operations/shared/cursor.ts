/**
 * Opaque page cursors: base64url of a short text the agent reads back (a listing's last id, a
 * history's last version, a node view's last link of each direction). Clients pass them back
 * unchanged; anything else is refused as "not a cursor".
 */
import { z } from "zod";

function encode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");
}

function decode(cursor: string, maxLength: number): string | undefined {
  if (cursor.length < 2 || cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** A node id as a cursor: "m<id>" (a listing pages below it, a history above it). */
export function encodeIdCursor(id: number): string {
  return encode(`m${id}`);
}

export function decodeIdCursor(cursor: string): number | undefined {
  const match = /^m([1-9][0-9]{0,15})$/.exec(decode(cursor, 24) ?? "");
  return match?.[1] && Number.isSafeInteger(Number(match[1])) ? Number(match[1]) : undefined;
}

/** A session id as a cursor: "s<id>" (the session listing pages after it). */
export function encodeSessionCursor(sessionId: string): string {
  return encode(`s${sessionId}`);
}

export function decodeSessionCursor(cursor: string): string | undefined {
  const match = /^s([A-Za-z0-9][A-Za-z0-9_.-]{0,63})$/.exec(decode(cursor, 120) ?? "");
  return match?.[1];
}

/** Where a page of a node's links ended in one direction: after this (other end, relation), or done. */
const PositionSchema = z.union([z.literal("end"), z.tuple([z.number().int().min(0), z.string().max(200)])]);
export type LinkPosition = z.infer<typeof PositionSchema>;
const LinksCursorSchema = z.object({ o: PositionSchema.nullable(), i: PositionSchema.nullable() }).strict();
export type LinksCursor = { outgoing: LinkPosition | null; incoming: LinkPosition | null };

export function encodeLinksCursor(at: LinksCursor): string {
  return encode(JSON.stringify({ o: at.outgoing, i: at.incoming }));
}

export function decodeLinksCursor(cursor: string): LinksCursor | undefined {
  const text = decode(cursor, 1200);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = LinksCursorSchema.safeParse(value);
  return parsed.success ? { outgoing: parsed.data.o, incoming: parsed.data.i } : undefined;
}
