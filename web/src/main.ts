/**
 * The web view of an agent's memory (DESIGN §14), served by the Worker at `/`. Sign in with an
 * API key, pick one of the tenant's agents (or delete one, confirmed in the page), look at its
 * network. Everything goes through the public API of the page's own origin (web/src/api/client.ts).
 */
import { ApiClient } from "./api/client";
import type { AgentList } from "./api/schemas";
import { clearKey, loadKey, saveKey } from "./session";
import { confirmInline } from "./ui/confirm";
import { byId, formatTime, h, replace } from "./ui/dom";
import { clearMessages, guard, showError } from "./ui/messages";
import { Workspace } from "./ui/workspace";

const views = {
  signin: byId("signin-view", HTMLElement),
  agents: byId("agents-view", HTMLElement),
  agent: byId("agent-view", HTMLElement),
};
const sessionBar = byId("session-bar", HTMLDivElement);
const currentAgent = byId("current-agent", HTMLSpanElement);
const agentList = byId("agent-list", HTMLUListElement);
const agentsMore = byId("agents-more", HTMLButtonElement);
const agentsEmpty = byId("agents-empty", HTMLParagraphElement);
const agentsStatus = byId("agents-status", HTMLParagraphElement);
const keyInput = byId("api-key", HTMLInputElement);

let client: ApiClient | null = null;
let nextCursor: string | null = null;
let workspace: Workspace | null = null;

function show(view: keyof typeof views): void {
  for (const [name, el] of Object.entries(views)) el.hidden = name !== view;
  sessionBar.hidden = view === "signin";
}

async function signIn(key: string): Promise<void> {
  const candidate = new ApiClient(key);
  // Listing the agents checks the key: a wrong one answers 401 and nothing is kept.
  const page = await candidate.listAgents(null);
  client = candidate;
  saveKey(key);
  keyInput.value = "";
  clearMessages();
  currentAgent.textContent = "";
  agentsStatus.textContent = "";
  replace(agentList);
  appendAgents(page);
  show("agents");
  agentList.querySelector("button")?.focus();
}

function appendAgents(page: AgentList): void {
  nextCursor = page.next_cursor;
  agentsMore.hidden = nextCursor === null;
  for (const agent of page.agents) {
    const open = h(
      "button",
      { type: "button", class: "open-agent", "data-agent-id": agent.agent_id },
      h("span", { class: "agent-id" }, agent.agent_id),
      h("span", { class: "hint" }, `last active ${formatTime(agent.last_active_at)}`),
    );
    open.addEventListener(
      "click",
      guard(`Opening agent ${agent.agent_id}`, () => openAgent(agent.agent_id)),
    );
    const remove = h(
      "button",
      { type: "button", class: "danger", "data-delete-agent": agent.agent_id, "aria-label": `Delete agent ${agent.agent_id}` },
      "Delete",
    );
    const area = h("div", { class: "action-area" });
    remove.addEventListener(
      "click",
      guard(`Deleting agent ${agent.agent_id}`, () => deleteAgent(agent.agent_id, area, remove)),
    );
    agentList.append(h("li", {}, open, remove, area));
  }
  agentsEmpty.hidden = agentList.childElementCount > 0;
}

/** Lists the tenant's agents from the first page again. */
async function listAgents(): Promise<void> {
  if (!client) return;
  const page = await client.listAgents(null);
  replace(agentList);
  appendAgents(page);
}

/** Deletes an agent once confirmed in the page (focus starts on Cancel), then lists the agents again. */
async function deleteAgent(agentId: string, area: HTMLElement, button: HTMLButtonElement): Promise<void> {
  if (!client) return;
  const confirmed = await confirmInline(area, {
    question: `Delete agent ${agentId}? Every memory, link, index entry, vector and queued task of it is deleted. This cannot be undone.`,
    confirmLabel: "Delete agent",
  });
  if (!confirmed) {
    button.focus();
    return;
  }
  button.disabled = true;
  agentsStatus.textContent = `Deleting agent ${agentId}…`;
  try {
    const outcome = await client.deleteAgent(agentId);
    agentsStatus.textContent = outcome.deleted
      ? `Agent ${agentId} is deleted.`
      : `Agent ${agentId} is being deleted (task ${outcome.task_id ?? "?"}); it leaves the list once done.`;
  } catch (err) {
    agentsStatus.textContent = "";
    button.disabled = false;
    throw err;
  }
  await listAgents();
  agentList.querySelector("button")?.focus();
}

async function openAgent(agentId: string): Promise<void> {
  if (!client) return;
  clearMessages();
  currentAgent.textContent = `Agent: ${agentId}`;
  show("agent");
  workspace ??= new Workspace();
  await workspace.open(client, agentId);
}

function signOut(): void {
  clearKey();
  client = null;
  workspace?.close();
  currentAgent.textContent = "";
  replace(agentList);
  show("signin");
  keyInput.focus();
}

byId("signin-form", HTMLFormElement).addEventListener("submit", (e) => {
  e.preventDefault();
  const key = keyInput.value.trim();
  if (!key) return;
  guard("Sign-in failed", () => signIn(key))();
});
agentsMore.addEventListener(
  "click",
  guard("Listing agents", async () => {
    if (client && nextCursor) appendAgents(await client.listAgents(nextCursor));
  }),
);
byId("change-agent", HTMLButtonElement).addEventListener(
  "click",
  guard("Listing agents", async () => {
    if (!client) return;
    workspace?.close();
    currentAgent.textContent = "";
    agentsStatus.textContent = "";
    await listAgents();
    show("agents");
  }),
);
byId("sign-out", HTMLButtonElement).addEventListener("click", signOut);
window.addEventListener("error", (e) => {
  // Chrome reports a ResizeObserver that took more than one frame to settle as an error; it is not one.
  if (typeof e.message === "string" && e.message.startsWith("ResizeObserver loop")) return;
  showError(e.error ?? e.message, "Unexpected error");
});
window.addEventListener("unhandledrejection", (e) => showError(e.reason, "Unexpected error"));

// The development key exists only in the local configuration: mention it only there.
byId("dev-key-hint", HTMLParagraphElement).hidden = !["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);

// A key kept from earlier in this tab signs in again; a stale one is dropped.
const kept = loadKey();
if (kept) {
  signIn(kept).catch((err: unknown) => {
    clearKey();
    show("signin");
    showError(err, "Sign-in failed");
  });
} else {
  show("signin");
}
