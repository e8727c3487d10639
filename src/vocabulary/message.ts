/**
 * A message as the agent keeps it (docs/design.md, "remember(messages)"): the one message schema
 * of the object. Times are already whole milliseconds and text already checked: the HTTP edge
 * (src/surfaces/messages.ts) converts and bounds what clients send. Remember's payload takes it whole;
 * a context request takes the turns of a conversation (`ConversationTurnSchema`).
 */
import { z } from "zod";
import { MAX_TIMESTAMP_MS, MIN_TIMESTAMP_MS } from "../config/limits";
import { MESSAGE_ROLES } from "./roles";

export const MessageSchema = z
  .object({
    role: z.enum(MESSAGE_ROLES),
    content: z.string().min(1),
    name: z.string().min(1).optional(),
    timestamp: z.number().int().min(MIN_TIMESTAMP_MS).max(MAX_TIMESTAMP_MS).optional(),
    id: z.string().min(1).optional(),
  })
  .strict();
export type Message = z.infer<typeof MessageSchema>;

/** A turn of the conversation a context block is built for: who said what. */
export const ConversationTurnSchema = MessageSchema.pick({ role: true, content: true, name: true });
