/**
 * A memory's energy indicator in the context block (docs/design.md, "Context for prompts"):
 * from min(importance, 1), the share of its text a memory keeps.
 *
 *   ●  above 0.7        ○  above 0.3, up to 0.7        ◌  0.3 or below
 */
export type Energy = "●" | "○" | "◌";

export function energyOf(importance: number): Energy {
  const share = Math.max(0, Math.min(importance, 1));
  if (share > 0.7) return "●";
  if (share > 0.3) return "○";
  return "◌";
}
