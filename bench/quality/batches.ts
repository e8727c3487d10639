/**
 * Splits one logical submission (a LoCoMo session, a MADial record) into `remember` calls the API
 * accepts: at most 500 messages and 200,000 code points per call, 32,000 per message (the API's
 * documented limits). Any LoCoMo-format file must work, including sessions longer than one call.
 * Pure module.
 */

export const MAX_MESSAGES_PER_CALL = 500;
export const MAX_CODE_POINTS_PER_CALL = 200_000;
export const MAX_CODE_POINTS_PER_MESSAGE = 32_000;

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
};

/**
 * Consecutive chunks of `messages`, in order, each within the limits. A message longer than one
 * message may be is an error: cutting it would change what is remembered.
 */
export function rememberBatches<M extends { content: string; id?: string }>(messages: readonly M[]): M[][] {
  const batches: M[][] = [];
  let current: M[] = [];
  let size = 0;
  for (const m of messages) {
    const n = codePoints(m.content);
    if (n > MAX_CODE_POINTS_PER_MESSAGE) {
      throw new Error(`message ${m.id ?? "?"} has ${n} code points, more than the API's ${MAX_CODE_POINTS_PER_MESSAGE}`);
    }
    if (current.length > 0 && (current.length >= MAX_MESSAGES_PER_CALL || size + n > MAX_CODE_POINTS_PER_CALL)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(m);
    size += n;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** An agent id (`[A-Za-z0-9][A-Za-z0-9_.-]{0,63}`) made of free text parts. */
export function agentId(...parts: string[]): string {
  const id = parts
    .join("-")
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^[^A-Za-z0-9]+/, "");
  return (id || "agent").slice(0, 64);
}
