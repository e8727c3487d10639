/**
 * The node panel: everything the API says about one node — content, original and current length,
 * importance and the link strengths it is the sum of, links out and in with relation and strength,
 * provenance, scan count — and the actions registered for it (web/src/actions/).
 */
import type { History, LinkView } from "../api/schemas";
import { actionsFor, type ActionContext, type NodeAction } from "../actions/node-actions";
import { correctionsOf } from "../graph/corrections";
import type { GraphModel, GraphNode } from "../graph/model";
import { relationName } from "../graph/relations";
import { codePoints, langOf, listLabel, truncate } from "../graph/style";
import { confirmInline } from "./confirm";
import { formatNumber, formatTime, h, replace } from "./dom";
import { editInline } from "./memory-editor";
import { guard } from "./messages";

/** Rows per link table before "show all". */
const LINK_ROWS = 60;
/** Terms of the importance sum written out. */
const IMPORTANCE_TERMS = 24;

export interface NodePanelDeps {
  model: GraphModel;
  actions: ActionContext;
  select(id: number): void;
  /** Saves an edit: the new content supersedes the memory. */
  saveEdit(id: number, content: string): Promise<void>;
  /** The versions of a memory, oldest first. */
  history(id: number): Promise<History>;
}

export class NodePanel {
  private showAllLinks = false;
  private shownId: number | null = null;
  /** Where the editor and confirmations of the node shown appear (under its action buttons). */
  private actionArea: HTMLElement | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly deps: NodePanelDeps,
  ) {}

  render(id: number | null): void {
    if (id !== this.shownId) this.showAllLinks = false;
    this.shownId = id;
    const node = id === null ? undefined : this.deps.model.get(id);
    this.actionArea = null;
    if (!node) {
      replace(this.root, h("p", { class: "hint" }, "Select a node in the graph or in the list of nodes shown."));
      return;
    }
    replace(this.root, ...this.sections(node));
  }

  private sections(node: GraphNode): Node[] {
    const view = node.view;
    const kind = node.status === "ghost" ? "forgotten" : (view?.kind ?? "loading");
    const heading = h(
      "h3",
      { "data-testid": "node-title" },
      h("span", { class: "kind-label" }, `${kind} #${node.id} `),
      h("span", { lang: langOf(listLabel(node)) }, truncate(listLabel(node), 80)),
      view?.in_focus && node.status !== "ghost" ? h("span", { class: "badge focus" }, "in focus") : null,
      view?.pinned && node.status !== "ghost"
        ? h(
            "span",
            {
              class: "badge focus",
              "data-testid": "pinned-memory",
              title: "A standing instruction: never forgotten, listed first in the context",
            },
            "pinned memory",
          )
        : null,
      view && node.status !== "ghost" && correctionsOf(view).supersededBy !== null
        ? h("span", { class: "badge superseded" }, "superseded")
        : null,
      view && node.status !== "ghost" && correctionsOf(view).conflictsWith.length > 0
        ? h("span", { class: "badge conflict" }, "contradicts")
        : null,
      node.start ? h("span", { class: "badge" }, "start") : null,
    );
    if (node.status === "ghost") return [heading, ...this.ghostSections(node)];
    if (!view) return [heading, h("p", { class: "hint" }, "Reading the node…")];

    const length = codePoints(view.content);
    const share = view.original_length > 0 ? length / view.original_length : 1;
    const facts = h(
      "dl",
      { class: "facts" },
      h("dt", {}, "Length"),
      h(
        "dd",
        { "data-testid": "node-length" },
        `${formatNumber(length)} of ${formatNumber(view.original_length)} characters (${Math.round(share * 100)}% held)`,
      ),
      h("dt", {}, "Importance"),
      h("dd", { "data-testid": "node-importance" }, formatNumber(view.importance)),
      h("dt", {}, "Scan count"),
      h("dd", { "data-testid": "node-scans" }, String(view.scan_count)),
      view.phrase ? h("dt", {}, "Phrase") : null,
      view.phrase ? h("dd", { lang: langOf(view.phrase) }, view.phrase) : null,
      h("dt", {}, "Keywords"),
      h("dd", { lang: langOf(view.keywords.join(" ")) }, view.keywords.length > 0 ? view.keywords.join(", ") : "—"),
      h("dt", {}, "Speaker"),
      h("dd", {}, [view.speaker, view.role].filter(Boolean).join(" · ") || "—"),
      h("dt", {}, "Source messages"),
      h("dd", { "data-testid": "node-sources" }, view.source_message_ids.length > 0 ? view.source_message_ids.join(", ") : "—"),
      h("dt", {}, "Source task"),
      h("dd", {}, view.source_task_id ?? "—"),
      h("dt", {}, "Remembered"),
      h("dd", {}, formatTime(view.created_at)),
      h("dt", {}, "Message time"),
      h("dd", {}, formatTime(view.message_time)),
    );
    const hidden = this.deps.model.hiddenNeighbours(node.id);
    const parts: (HTMLElement | null)[] = [
      heading,
      h("div", { class: "node-content", lang: langOf(view.content), "data-testid": "node-content" }, view.content),
      this.corrections(node),
      facts,
      this.importanceTerms(view.links.outgoing, view.importance),
      this.actionButtons(node),
      hidden > 0
        ? h(
            "p",
            { class: "hint" },
            hidden === 1 ? "1 neighbour is not shown: expand to add it." : `${hidden} neighbours are not shown: expand to add them.`,
          )
        : null,
      ...this.linkTable("Links out", view.links.outgoing, node.id, "out"),
      ...this.linkTable("Links in", view.links.incoming, node.id, "in"),
    ];
    return parts.filter((n): n is HTMLElement => n !== null);
  }

  private ghostSections(node: GraphNode): Node[] {
    const pointing = this.deps.model.linksOfNode(node.id).filter((l) => l.target.id === node.id);
    const last = node.view;
    const parts: (HTMLElement | null)[] = [
      h(
        "p",
        { "data-testid": "ghost-note" },
        "Forgotten: this memory was deleted (by compression, or by hand). The links that pointed at it stay behind, dangling — the agent can still tell it once knew something here.",
      ),
      last ? h("h4", {}, "Last seen") : null,
      last ? h("div", { class: "node-content", lang: langOf(last.content) }, last.content) : null,
      h("h4", {}, `Dangling links to it (${pointing.length} shown)`),
      h(
        "ul",
        {},
        ...pointing.map((l) =>
          h(
            "li",
            { "data-relation": l.relation },
            this.nodeButton(l.source.id),
            ` — ${relationName(l.relation)} — strength ${formatNumber(l.strength)}`,
          ),
        ),
      ),
    ];
    return parts.filter((n): n is HTMLElement => n !== null);
  }

  /** importance = Σ strengths of the outgoing links (DESIGN §3), written out term by term. */
  private importanceTerms(outgoing: readonly LinkView[], importance: number): HTMLElement {
    const terms = outgoing.map((l) => formatNumber(l.strength));
    const shown = terms.slice(0, IMPORTANCE_TERMS).join(" + ");
    const rest = terms.length > IMPORTANCE_TERMS ? ` + … (${terms.length - IMPORTANCE_TERMS} more)` : "";
    const sum = outgoing.reduce((s, l) => s + l.strength, 0);
    return h(
      "p",
      { class: "importance-terms", "data-testid": "importance-terms" },
      `Importance = sum of ${outgoing.length} outgoing link strengths = ${terms.length > 0 ? shown + rest : "0"} = ${formatNumber(sum)}`,
      Math.abs(sum - importance) > 1e-6 ? ` (the API reports ${formatNumber(importance)})` : null,
    );
  }

  private actionButtons(node: GraphNode): HTMLElement {
    const area = h("div", { class: "action-area", "data-testid": "action-area" });
    this.actionArea = area;
    const buttons = actionsFor(node).map((action) => {
      const danger = action.confirm !== undefined;
      const button = h(
        "button",
        { type: "button", "data-action": action.id, class: danger ? "danger" : action.kind === "write" ? "write" : null },
        action.label,
      );
      button.addEventListener(
        "click",
        guard(action.label, () => this.runAction(action, node, buttons)),
      );
      return button;
    });
    return h("div", {}, h("div", { class: "actions" }, ...buttons), area);
  }

  /** Runs an action; a destructive one only once confirmed in the page. The buttons rest meanwhile. */
  private async runAction(action: NodeAction, node: GraphNode, buttons: HTMLButtonElement[]): Promise<void> {
    const area = this.actionArea;
    if (action.confirm && area) {
      const confirmed = await confirmInline(area, action.confirm(node));
      if (!confirmed) {
        buttons.find((b) => b.dataset.action === action.id)?.focus();
        return;
      }
    }
    if (action.kind === "write") for (const b of buttons) b.disabled = true;
    try {
      await action.run(node, this.deps.actions);
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  }

  /** The editor of the shown memory's content (the "Edit" action): saving makes a new version. */
  async startEdit(id: number): Promise<void> {
    const node = this.deps.model.get(id);
    const area = this.actionArea;
    if (!node?.view || !area || this.shownId !== id) return;
    const content = await editInline(area, node.view.content);
    if (content === null) return;
    replace(area, h("p", { class: "hint", role: "status" }, "Saving the new version…"));
    try {
      await this.deps.saveEdit(id, content);
    } finally {
      if (area.isConnected) replace(area);
    }
  }

  /** What corrections left on it: superseded by a newer version, versions it corrects, contradictions. */
  private corrections(node: GraphNode): HTMLElement | null {
    const view = node.view;
    if (!view) return null;
    const { supersededBy, supersedes, conflictsWith } = correctionsOf(view);
    if (supersededBy === null && supersedes.length === 0 && conflictsWith.length === 0) return null;
    const versions = h("div", { "data-testid": "versions" });
    const showVersions = h("button", { type: "button", "data-testid": "show-versions" }, "Show the versions");
    showVersions.addEventListener(
      "click",
      guard("Reading the versions", async () => {
        const history = await this.deps.history(node.id);
        replace(versions, this.versionList(history, node.id));
      }),
    );
    return h(
      "div",
      { class: "corrections", "data-testid": "corrections" },
      supersededBy !== null
        ? h(
            "p",
            { "data-testid": "superseded-note" },
            "Superseded: a newer version corrected this memory; recall and search give the new one. This one stays as history until forgetting takes it. Current version: ",
            this.nodeButton(supersededBy),
          )
        : null,
      supersedes.length > 0
        ? h("p", { "data-testid": "supersedes-note" }, "Corrects the earlier version(s): ", ...supersedes.map((id) => this.nodeButton(id)))
        : null,
      conflictsWith.length > 0
        ? h(
            "p",
            { "data-testid": "conflict-note" },
            "Contradicts (both are kept, marked for whoever reads them): ",
            ...conflictsWith.map((id) => this.nodeButton(id)),
          )
        : null,
      supersededBy !== null || supersedes.length > 0 ? showVersions : null,
      versions,
    );
  }

  private versionList(history: History, current: number): HTMLElement {
    return h(
      "ol",
      { class: "versions" },
      ...history.history.map((v) =>
        h(
          "li",
          { class: v.node_id === current ? "current" : null },
          h("span", { class: "kind-label" }, `#${v.node_id} · ${formatTime(v.created_at)} `),
          h("span", { lang: langOf(v.content) }, v.content),
          v.superseded_by !== null ? h("span", { class: "badge superseded" }, `→ #${v.superseded_by}`) : null,
        ),
      ),
    );
  }

  private linkTable(title: string, links: readonly LinkView[], self: number, direction: "out" | "in"): HTMLElement[] {
    const rows = this.showAllLinks ? links : links.slice(0, LINK_ROWS);
    const table = h(
      "table",
      { class: "links", "data-testid": `links-${direction}` },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "relation"),
          h("th", { scope: "col" }, direction === "out" ? "to" : "from"),
          h("th", { scope: "col" }, "strength"),
        ),
      ),
      h(
        "tbody",
        {},
        ...rows.map((l) => {
          const far = direction === "out" ? l.target : l.source;
          return h(
            "tr",
            {},
            h("td", { "data-relation": l.relation }, relationName(l.relation)),
            h(
              "td",
              {},
              l.dangling ? h("span", {}, `forgotten #${far}`) : this.nodeButton(far),
              l.pinned ? h("span", { class: "badge pinned" }, "pinned") : null,
              l.dangling ? h("span", { class: "badge dangling" }, "dangling") : null,
            ),
            h("td", { class: "num" }, formatNumber(l.strength)),
          );
        }),
      ),
    );
    const out: HTMLElement[] = [h("h4", {}, `${title} (${links.length})`)];
    if (links.length > 0) out.push(table);
    if (links.length > rows.length) {
      const more = h("button", { type: "button" }, `Show all ${links.length}`);
      more.addEventListener("click", () => {
        this.showAllLinks = true;
        this.render(self);
      });
      out.push(more);
    }
    return out;
  }

  private nodeButton(id: number): HTMLElement {
    const button = h("button", { type: "button", title: `Show #${id}`, "data-node-id": id });
    this.label(button, id);
    button.addEventListener("click", () => this.deps.select(id));
    return button;
  }

  private label(button: HTMLElement, id: number): void {
    const node = this.deps.model.get(id);
    const label = node ? truncate(listLabel(node), 40) : `#${id} (not shown)`;
    if (button.textContent === label) return;
    button.textContent = label;
    button.lang = langOf(label);
  }

  /** Brings the names of linked nodes up to date in place (keyboard focus stays where it is). */
  refreshLabels(): void {
    for (const button of this.root.querySelectorAll<HTMLElement>("button[data-node-id]")) {
      const id = Number(button.dataset.nodeId);
      if (Number.isInteger(id)) this.label(button, id);
    }
  }
}
