/**
 * The editor of a memory's content, in the node panel: saving sends the new content, which becomes
 * a new version that supersedes this one (DESIGN §11). Escape or "Cancel" closes it unchanged.
 */
import { langOf } from "../graph/style";
import { h, replace } from "./dom";

let counter = 0;

/** Shows the editor in `area`; resolves with the new content, or null when cancelled. */
export function editInline(area: HTMLElement, content: string): Promise<string | null> {
  const id = `edit-content-${++counter}`;
  return new Promise((resolve) => {
    const text = h("textarea", { id, rows: 4, lang: langOf(content), "data-testid": "edit-content", required: true });
    text.value = content;
    const problem = h("p", { class: "hint", role: "status" });
    const cancel = h("button", { type: "button" }, "Cancel");
    const form = h(
      "form",
      { class: "editor", method: "dialog", "data-testid": "editor" },
      h("label", { for: id }, "New content: saved as a new version that supersedes this one (the old one stays as history)"),
      text,
      problem,
      h("div", { class: "actions" }, h("button", { type: "submit", "data-testid": "edit-save" }, "Save new version"), cancel),
    );
    const finish = (answer: string | null) => {
      form.remove();
      resolve(answer);
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const next = text.value.trim();
      if (next.length === 0) problem.textContent = "The content cannot be empty (delete the memory instead).";
      else if (next === content.trim()) problem.textContent = "Nothing changed.";
      else finish(next);
    });
    text.addEventListener("input", () => {
      text.lang = langOf(text.value);
    });
    cancel.addEventListener("click", () => finish(null));
    form.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      finish(null);
    });
    replace(area, form);
    text.focus();
  });
}
