/**
 * One agent on screen: the graph (model, layout, canvas, loader), the list of nodes shown, the
 * selection, and the five panels (node, recall, search, forgetting, write) in tabs.
 */
import { MemoryWrites } from "../actions/memory-writes";
import type { ActionContext } from "../actions/node-actions";
import type { ApiClient } from "../api/client";
import type { NodeView } from "../api/schemas";
import { GraphCanvas } from "../graph/canvas-view";
import { ForceLayout } from "../graph/layout";
import { GraphModel } from "../graph/model";
import { NetworkLoader } from "../graph/network";
import { dominantLanguage } from "../graph/style";
import { byId } from "./dom";
import { ForgettingPanel } from "./forgetting-panel";
import { guard } from "./messages";
import { NodeList } from "./node-list";
import { NodePanel } from "./node-panel";
import { RecallPanel } from "./recall-panel";
import { SearchPanel } from "./search-panel";
import { WritePanel } from "./write-panel";

type Tab = "node" | "recall" | "search" | "forget" | "write";
const TABS: readonly Tab[] = ["node", "recall", "search", "forget", "write"];

export class Workspace {
  private readonly model = new GraphModel();
  private readonly layout = new ForceLayout(this.model);
  private readonly canvas: GraphCanvas;
  private readonly nodeList: NodeList;
  private readonly nodePanel: NodePanel;
  private readonly recall: RecallPanel;
  private readonly search: SearchPanel;
  private readonly forgetting: ForgettingPanel;
  private readonly writes: MemoryWrites;
  private readonly write: WritePanel;
  private readonly status = byId("graph-status", HTMLParagraphElement);
  private readonly startSelected = byId("start-selected", HTMLButtonElement);
  private readonly expandSelected = byId("expand-selected", HTMLButtonElement);
  private session: { client: ApiClient; agent: string; loader: NetworkLoader } | null = null;
  private selected: number | null = null;
  /** What the node panel last rendered (it is rebuilt only when that changes). */
  private panelShows: { id: number | null; status: string | undefined; view: unknown } | null = null;
  private uiFrame = false;

  constructor() {
    this.canvas = new GraphCanvas(byId("graph", HTMLCanvasElement), this.model, this.layout, {
      select: (id) => this.select(id, false),
      expand: (id) => guard("Expanding the node", () => this.expand(id))(),
    });
    this.nodeList = new NodeList(
      byId("node-list", HTMLUListElement),
      byId("node-count", HTMLSpanElement),
      byId("node-filter", HTMLInputElement),
      this.model,
      (id) => this.select(id, true),
    );
    const actions: ActionContext = {
      expand: (id) => this.expand(id),
      startFrom: (ids, label) => this.startFrom(ids, label),
      recallAbout: async (keywords) => {
        this.recall.setKeywords(keywords);
        this.showTab("recall");
        await this.recall.run();
      },
      refresh: async () => {
        await this.loader().refresh();
      },
      editMemory: (id) => this.nodePanel.startEdit(id),
      linkFrom: async (id) => {
        this.showTab("write");
        this.write.linkFrom(id);
      },
      forget: async (id, purge) => {
        await this.writes.remove(id, purge);
      },
    };
    this.writes = new MemoryWrites({
      model: this.model,
      current: () => this.current(),
      select: (id) => this.select(id, id !== null),
      status: (text) => {
        this.status.textContent = text;
      },
    });
    this.nodePanel = new NodePanel(byId("panel-node", HTMLElement), {
      model: this.model,
      actions,
      select: (id) => this.select(id, true),
      saveEdit: async (id, content) => {
        await this.writes.edit(id, content);
      },
      history: (id) => this.current().client.history(this.current().agent, id),
    });
    this.write = new WritePanel({ writes: () => this.writes, selected: () => this.selected });
    const client = () => this.current().client;
    const agent = () => this.current().agent;
    this.recall = new RecallPanel({
      client,
      agent,
      showHits: (memories, traces) => this.showHits(memories, traces),
    });
    this.search = new SearchPanel({
      client,
      agent,
      showHits: (ids) => this.showHits(ids, []),
      select: (id) => this.select(id, true),
      startFrom: (ids, label) => this.startFrom(ids, label),
    });
    this.forgetting = new ForgettingPanel({
      client,
      agent,
      refresh: async () => {
        await this.loader().refresh();
      },
      shown: () => this.shownViews(),
    });

    byId("start-focus", HTMLButtonElement).addEventListener(
      "click",
      guard("Showing the focus", () => this.startFromFocus()),
    );
    this.startSelected.addEventListener(
      "click",
      guard("Starting from the node", async () => {
        if (this.selected !== null) await this.startFrom([this.selected], `Around #${this.selected}`);
      }),
    );
    this.expandSelected.addEventListener(
      "click",
      guard("Expanding the node", async () => {
        if (this.selected !== null) await this.expand(this.selected);
      }),
    );
    byId("fit-view", HTMLButtonElement).addEventListener("click", () => this.canvas.resumeFitting());
    byId("recall-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Recall", () => this.recall.run())();
    });
    byId("context-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Context block", () => this.recall.previewContext())();
    });
    byId("search-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Search", () => this.search.run())();
    });
    byId("search-start", HTMLButtonElement).addEventListener(
      "click",
      guard("Starting from the results", () => this.search.startFromResults()),
    );
    byId("add-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Adding the memory", () => this.write.add())();
    });
    byId("link-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Linking", () => this.write.link())();
    });
    byId("config-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Saving the decay rate", () => this.forgetting.saveDecayRate())();
    });
    byId("cycles-form", HTMLFormElement).addEventListener("submit", (e) => {
      e.preventDefault();
      guard("Running compression cycles", () => this.forgetting.runCycles())();
    });
    this.setUpTabs();
  }

  /** Shows an agent: its focus neighbourhood and its stats. */
  async open(client: ApiClient, agent: string): Promise<void> {
    const loader = new NetworkLoader(client, agent, this.model, this.canvas, {
      changed: () => this.scheduleUi(),
      status: (text) => {
        this.status.textContent = text;
      },
    });
    this.session = { client, agent, loader };
    this.model.clear();
    this.selected = null;
    this.canvas.selected = null;
    this.recall.reset();
    this.search.reset();
    this.write.reset();
    this.showTab("node");
    this.setLanguage("en");
    this.scheduleUi();
    await Promise.all([this.startFromFocus(), this.forgetting.open()]);
    // Examples and the labels of recall follow the language of the agent's memories.
    this.setLanguage(dominantLanguage(this.shownViews().map((v) => v.content)));
    this.forgetting.updateForecast();
  }

  private setLanguage(language: "zh" | "en"): void {
    this.recall.setLanguage(language);
    this.write.setLanguage(language);
  }

  /** The views of the nodes shown that still exist. */
  private shownViews(): NodeView[] {
    const views: NodeView[] = [];
    for (const n of this.model.nodes.values()) if (n.status === "loaded" && n.view) views.push(n.view);
    return views;
  }

  close(): void {
    this.session = null;
    this.model.clear();
    this.layout.stop();
    this.selected = null;
    this.scheduleUi();
  }

  async startFromFocus(): Promise<void> {
    const { client, agent, loader } = this.current();
    const focus = await client.focus(agent);
    if (focus.focus.length === 0) {
      this.model.clear();
      this.scheduleUi();
      this.status.textContent = "The focus is empty (no memories yet, or all entities left it): search for something to start from.";
      return;
    }
    await loader.showAround(
      focus.focus.map((f) => f.node_id),
      "Focus",
    );
  }

  /** A new starting set; started from one node, that node stays selected. */
  async startFrom(ids: number[], label: string): Promise<void> {
    const only = ids.length === 1 ? ids[0] : undefined;
    this.select(only ?? null, false);
    await this.loader().showAround(ids, label);
    if (only !== undefined && this.model.get(only)) this.select(only, false);
  }

  async expand(id: number): Promise<void> {
    await this.loader().expand(id);
  }

  private async showHits(memories: number[], traces: number[]): Promise<void> {
    this.canvas.highlights = new Set(memories);
    this.canvas.traceSources = new Set(traces);
    await this.loader().reveal([...memories, ...traces]);
    this.canvas.requestDraw();
  }

  /** Selects a node (null: none); one not shown yet is added first. */
  select(id: number | null, centre: boolean): void {
    this.selected = id;
    this.canvas.selected = id;
    this.startSelected.disabled = id === null;
    this.expandSelected.disabled = id === null;
    if (id !== null) {
      this.showTab("node");
      if (!this.model.get(id) && this.session) {
        guard("Showing the node", async () => {
          await this.loader().reveal([id]);
          if (centre) this.canvas.centreOn(id);
        })();
      } else if (centre) this.canvas.centreOn(id);
    }
    this.panelShows = null;
    this.scheduleUi();
    this.canvas.requestDraw();
  }

  private current(): { client: ApiClient; agent: string; loader: NetworkLoader } {
    if (!this.session) throw new Error("no agent is open");
    return this.session;
  }

  private loader(): NetworkLoader {
    return this.current().loader;
  }

  /** Lists and panel follow the model at most once per frame. */
  private scheduleUi(): void {
    if (this.uiFrame) return;
    this.uiFrame = true;
    requestAnimationFrame(() => {
      this.uiFrame = false;
      this.nodeList.render(this.selected);
      // The panel is rebuilt only when what it shows changed (rebuilding moves keyboard focus).
      const node = this.selected === null ? undefined : this.model.get(this.selected);
      const shown = { id: this.selected, status: node?.status, view: node?.view };
      const last = this.panelShows;
      if (!last || last.id !== shown.id || last.status !== shown.status || last.view !== shown.view) {
        this.panelShows = shown;
        this.nodePanel.render(this.selected);
      } else {
        this.nodePanel.refreshLabels();
      }
      this.canvas.requestDraw();
    });
  }

  private showTab(tab: Tab): void {
    for (const t of TABS) {
      const button = byId(`tab-${t}`, HTMLButtonElement);
      const panel = byId(`panel-${t}`, HTMLElement);
      const active = t === tab;
      button.setAttribute("aria-selected", String(active));
      button.tabIndex = active ? 0 : -1;
      panel.hidden = !active;
    }
    if (tab === "forget" && this.session) this.forgetting.updateForecast();
  }

  /** Tabs per the WAI-ARIA pattern: click or arrow keys. */
  private setUpTabs(): void {
    TABS.forEach((tab, i) => {
      const button = byId(`tab-${tab}`, HTMLButtonElement);
      button.addEventListener("click", () => this.showTab(tab));
      button.addEventListener("keydown", (e) => {
        const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
        if (step === 0) return;
        e.preventDefault();
        const next = TABS[(i + step + TABS.length) % TABS.length] ?? tab;
        this.showTab(next);
        byId(`tab-${next}`, HTMLButtonElement).focus();
      });
    });
  }
}
