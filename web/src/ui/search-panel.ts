/** Search (keyword, vector or hybrid, top k): ranked results, highlighted in the graph; they can become the starting set. */
import type { ApiClient, SearchParams } from "../api/client";
import type { SearchResponse } from "../api/schemas";
import { langOf, truncate } from "../graph/style";
import { byId, formatNumber, h, replace } from "./dom";

export interface SearchDeps {
  client(): ApiClient;
  agent(): string;
  showHits(ids: number[]): Promise<void>;
  select(id: number): void;
  startFrom(ids: number[], label: string): Promise<void>;
}

export class SearchPanel {
  private readonly query = byId("search-query", HTMLInputElement);
  private readonly mode = byId("search-mode", HTMLSelectElement);
  private readonly topK = byId("search-top-k", HTMLInputElement);
  private readonly segments = byId("search-kind-segment", HTMLInputElement);
  private readonly entities = byId("search-kind-entity", HTMLInputElement);
  private readonly results = byId("search-results", HTMLOListElement);
  private readonly startButton = byId("search-start", HTMLButtonElement);
  private last: SearchResponse | null = null;

  constructor(private readonly deps: SearchDeps) {}

  reset(): void {
    this.last = null;
    this.results.replaceChildren();
    this.startButton.disabled = true;
  }

  params(): SearchParams {
    const mode = this.mode.value === "keyword" || this.mode.value === "vector" ? this.mode.value : "hybrid";
    const kinds = [this.segments.checked ? "segment" : null, this.entities.checked ? "entity" : null].filter(
      (k): k is string => k !== null,
    );
    return { query: this.query.value.trim(), mode, top_k: Number(this.topK.value), kinds };
  }

  async run(): Promise<void> {
    const response = await this.deps.client().search(this.deps.agent(), this.params());
    this.last = response;
    this.startButton.disabled = response.items.length === 0;
    if (response.items.length === 0) {
      replace(this.results, h("li", { class: "hint" }, "No results."));
      return;
    }
    replace(
      this.results,
      ...response.items.map((item) => {
        const label = truncate(item.content, 140);
        const button = h(
          "button",
          { type: "button", "data-node-id": item.node_id },
          h("span", { lang: langOf(label) }, label),
          h("br"),
          h("span", { class: "score" }, `${item.kind} #${item.node_id} · score ${formatNumber(item.score, 4)}`),
        );
        button.addEventListener("click", () => this.deps.select(item.node_id));
        return h("li", {}, button);
      }),
    );
    await this.deps.showHits(response.items.map((i) => i.node_id));
  }

  async startFromResults(): Promise<void> {
    const ids = this.last?.items.map((i) => i.node_id) ?? [];
    if (ids.length > 0) await this.deps.startFrom(ids, "Search results");
  }
}
