/** Who said a message (docs/design.md, "remember(messages)"): the one list every layer imports. */
export const MESSAGE_ROLES = ["user", "assistant", "system"] as const;

export type MessageRole = (typeof MESSAGE_ROLES)[number];

export function isMessageRole(value: unknown): value is MessageRole {
  return typeof value === "string" && (MESSAGE_ROLES as readonly string[]).includes(value);
}
