/**
 * What a vector index filters on itself (docs/design.md, "Scoping: sessions, speakers, tags and
 * expiry"): a node's kind, session and speaker. Vectorize filters these three by metadata indexes;
 * the local index and the Vectorize adapter's buffer of recent writes apply the same test here, so
 * local runs find what production finds. Every other condition of a read is applied by its caller
 * when the hits are looked up.
 */
import type { NodeKind } from "../vocabulary/node-kinds";
import type { VectorQuery } from "./types";
import { kindCode, kindMask } from "./vector-codec";

/** Vectorize indexes the first 64 bytes of a string property: what is stored and asked for. */
export const VECTORIZE_STRING_INDEX_BYTES = 64;

const UTF8 = new TextEncoder();

/** `value` cut to at most 64 bytes of UTF-8 on a character boundary (what Vectorize's index keeps of it). */
export function indexedPrefix(value: string): string {
  if (UTF8.encode(value).byteLength <= VECTORIZE_STRING_INDEX_BYTES) return value;
  let out = "";
  let bytes = 0;
  for (const char of value) {
    const size = UTF8.encode(char).byteLength;
    if (bytes + size > VECTORIZE_STRING_INDEX_BYTES) break;
    out += char;
    bytes += size;
  }
  return out;
}

/** A row's test for `query`: its kind, session and speaker. */
export function vectorRowFilter(query: VectorQuery): (kind: NodeKind, session: string | null, speaker: string | null) => boolean {
  const mask = kindMask(query.kinds);
  const sessions = query.sessions ? new Set(query.sessions) : undefined;
  const speakers = query.speakers ? new Set(query.speakers) : undefined;
  return (kind, session, speaker) =>
    mask[kindCode(kind)] === 1 &&
    (sessions === undefined || (session !== null && sessions.has(session))) &&
    (speakers === undefined || (speaker !== null && speakers.has(speaker)));
}
