/**
 * Importance (重要性, docs/design.md, "The model"): the sum of the strengths of a node's outgoing
 * links, dangling ones included. Range [0, ∞). The retained share of content is min(importance, 1).
 */
export function importanceOf(outgoingStrengths: readonly number[]): number {
  // Summed smallest first: the same links give the same importance to the last bit, whatever order
  // they were read in (memory or database), and small strengths are not lost against large ones.
  let sum = 0;
  for (const s of [...outgoingStrengths].sort((a, b) => a - b)) sum += s;
  return sum;
}

export function retainedShare(importance: number): number {
  return Math.max(0, Math.min(importance, 1));
}

/**
 * Whether `importance` is at least 1 (a protected node, docs/design.md, "Compression") can be told from a sum
 * in any order when it is clearly above 1: rounding moves a sum of a few hundred strengths by far
 * less than this margin. Only a node below it needs the exact, sorted sum.
 */
export const PROTECTED_MARGIN = 1e-9;
