/** The memory types: 事件 (an action at a time), 事实 (a stable state), 关系 (between people), 观点 (a view). */
export const MEMORY_TYPES = ["event", "fact", "relation", "opinion"] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** The Chinese names a caller may use for the memory types. */
const MEMORY_TYPE_ALIASES = { 事件: "event", 事实: "fact", 关系: "relation", 观点: "opinion" } as const satisfies Record<
  string,
  MemoryType
>;

/** Every name a caller may give a memory type: the English ones, then the Chinese. */
export const MEMORY_TYPE_NAMES = [...MEMORY_TYPES, ...(Object.keys(MEMORY_TYPE_ALIASES) as (keyof typeof MEMORY_TYPE_ALIASES)[])] as const;

/** A memory type by any of its names. */
export function memoryTypeOf(name: (typeof MEMORY_TYPE_NAMES)[number]): MemoryType {
  return name in MEMORY_TYPE_ALIASES ? MEMORY_TYPE_ALIASES[name as keyof typeof MEMORY_TYPE_ALIASES] : (name as MemoryType);
}
