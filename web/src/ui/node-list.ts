/**
 * The nodes shown, as a list of buttons: the keyboard (and screen reader) way into the graph.
 * Start nodes first, then by importance; ghosts last. Filtered by a text field.
 */
import { isSuperseded } from "../graph/corrections";
import type { GraphModel, GraphNode } from "../graph/model";
import { langOf, listLabel, truncate } from "../graph/style";
import { formatNumber, h, replace } from "./dom";

const MAX_ROWS = 300;

function order(n: GraphNode): number {
  if (n.start) return 0;
  if (n.status === "loaded") return 1;
  if (n.status === "pending") return 2;
  return 3;
}

export function sortedNodes(model: GraphModel): GraphNode[] {
  return [...model.nodes.values()].sort(
    (a, b) => order(a) - order(b) || (b.view?.importance ?? 0) - (a.view?.importance ?? 0) || a.id - b.id,
  );
}

export class NodeList {
  constructor(
    private readonly list: HTMLUListElement,
    private readonly count: HTMLElement,
    private readonly filter: HTMLInputElement,
    private readonly model: GraphModel,
    private readonly select: (id: number) => void,
  ) {
    filter.addEventListener("input", () => this.render(this.selected));
  }

  private selected: number | null = null;

  render(selected: number | null): void {
    this.selected = selected;
    const needle = this.filter.value.trim().toLowerCase();
    const nodes = sortedNodes(this.model).filter((n) => !needle || listLabel(n).toLowerCase().includes(needle) || String(n.id) === needle);
    this.count.textContent = String(this.model.nodes.size);
    const rows = nodes.slice(0, MAX_ROWS).map((n) => {
      const kind = n.status === "ghost" ? "forgotten" : n.view && isSuperseded(n.view) ? "superseded" : (n.view?.kind ?? "…");
      const label = truncate(listLabel(n), 60);
      const button = h(
        "button",
        { type: "button", "data-node-id": n.id, "aria-current": n.id === selected ? "true" : null },
        h("span", { class: "kind" }, kind),
        h("span", { lang: langOf(label) }, label),
        n.view && n.status === "loaded" ? h("span", { class: "hint" }, ` · ${formatNumber(n.view.importance, 2)}`) : null,
      );
      button.addEventListener("click", () => this.select(n.id));
      return h("li", {}, button);
    });
    if (nodes.length > MAX_ROWS) rows.push(h("li", { class: "hint" }, `… ${nodes.length - MAX_ROWS} more: use the filter`));
    replace(this.list, ...rows);
  }
}
