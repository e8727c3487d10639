/**
 * The link form's fields turned into a request (pure, unit-tested): each end is a node id ("12" or
 * "#12") or a description the agent resolves by its own search; the relation is one of the
 * explicit vocabulary (DESIGN §11), by English alias; the strength is optional, in (0, 1].
 */
import type { LinkParams, MemoryRef } from "../api/client";

/**
 * The relations a client may give an explicit link: the English alias sent, and the stored Chinese
 * name (its label is the page's English name, web/src/graph/relations.ts).
 */
export const LINK_RELATIONS: readonly { value: string; name: string }[] = [
  { value: "related", name: "相关" },
  { value: "causes", name: "导致" },
  { value: "because", name: "因为" },
  { value: "therefore", name: "所以" },
  { value: "cites", name: "引用" },
  { value: "based_on", name: "基于" },
];

/** "12", "#12", " #12 " → 12; anything else non-blank → the trimmed description; blank → null. */
export function parseMemoryRef(text: string): MemoryRef | null {
  const trimmed = text.trim();
  if (trimmed.length === 0) return null;
  const id = /^#?\s*(\d{1,10})$/.exec(trimmed);
  if (id?.[1]) {
    const n = Number(id[1]);
    if (Number.isSafeInteger(n) && n >= 1 && n <= 2 ** 30) return n;
  }
  return trimmed;
}

export interface LinkFields {
  source: string;
  target: string;
  relation: string;
  strength: string;
}

/** The request, or what is wrong with the fields (shown next to the form, nothing sent). */
export function linkRequest(fields: LinkFields): { ok: true; params: LinkParams } | { ok: false; problem: string } {
  const source = parseMemoryRef(fields.source);
  const target = parseMemoryRef(fields.target);
  if (source === null) return { ok: false, problem: "Source: a node id (#12) or a description of the memory." };
  if (target === null) return { ok: false, problem: "Target: a node id (#12) or a description of the memory." };
  if (source === target) return { ok: false, problem: "Source and target are the same memory." };
  if (!LINK_RELATIONS.some((r) => r.value === fields.relation)) {
    return { ok: false, problem: `Relation: one of ${LINK_RELATIONS.map((r) => r.value).join(", ")}.` };
  }
  const params: LinkParams = { source, target, relation: fields.relation };
  if (fields.strength.trim() !== "") {
    const strength = Number(fields.strength);
    if (!Number.isFinite(strength) || strength <= 0 || strength > 1) return { ok: false, problem: "Strength: more than 0, at most 1." };
    params.strength = strength;
  }
  return { ok: true, params };
}
