/**
 * Errors shown to the user: every failure of an action ends here as a readable message (never a
 * blank page), including API errors with their code, network failures and unexpected exceptions.
 */
import { ApiError } from "../api/client";
import { byId, h } from "./dom";

export function describeError(err: unknown): string {
  if (err instanceof ApiError) return err.describe();
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

export function showError(err: unknown, context?: string): void {
  const box = byId("messages", HTMLDivElement);
  const text = context ? `${context}: ${describeError(err)}` : describeError(err);
  const close = h("button", { type: "button", "aria-label": "Dismiss message" }, "×");
  const message = h("div", { class: "message", "data-kind": "error" }, h("p", {}, text), close);
  close.addEventListener("click", () => message.remove());
  box.append(message);
  // Keep the last few only.
  while (box.children.length > 3) box.firstElementChild?.remove();
}

export function clearMessages(): void {
  byId("messages", HTMLDivElement).replaceChildren();
}

/** Runs an action triggered by the user; a failure becomes a message instead of an unhandled rejection. */
export function guard(context: string, action: () => Promise<void>): () => void {
  return () => {
    action().catch((err: unknown) => showError(err, context));
  };
}
