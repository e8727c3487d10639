/**
 * An in-page confirmation for destructive actions (delete, purge): the question and two buttons in
 * place of a window.confirm, keyboard first — focus starts on "Cancel", Escape cancels.
 */
import type { Confirmation } from "../actions/node-actions";
import { h, replace } from "./dom";

let counter = 0;

/** Shows the question in `area`; resolves true when confirmed, false when cancelled. */
export function confirmInline(area: HTMLElement, confirmation: Confirmation): Promise<boolean> {
  const id = `confirm-question-${++counter}`;
  return new Promise((resolve) => {
    const yes = h("button", { type: "button", class: "danger", "data-testid": "confirm-yes" }, confirmation.confirmLabel);
    const no = h("button", { type: "button", "data-testid": "confirm-no" }, "Cancel");
    const box = h(
      "div",
      { class: "confirm", role: "alertdialog", "aria-labelledby": id, "data-testid": "confirm" },
      h("p", { id }, confirmation.question),
      h("div", { class: "actions" }, yes, no),
    );
    const finish = (answer: boolean) => {
      box.remove();
      resolve(answer);
    };
    yes.addEventListener("click", () => finish(true));
    no.addEventListener("click", () => finish(false));
    box.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      e.stopPropagation();
      finish(false);
    });
    replace(area, box);
    no.focus();
  });
}
