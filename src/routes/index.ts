import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/app-env";
import { registerAgent } from "./agents";
import { registerAgentList } from "./agents-list";
import { registerConfig } from "./config";
import { registerContext } from "./context";
import { registerHealth } from "./health";
import { registerLinks } from "./links";
import { registerMemories } from "./memories";
import { registerMcp } from "./mcp";
import { registerReads } from "./reads";
import { registerRecall } from "./recall";
import { registerRemember } from "./remember";
import { registerSearch } from "./search";
import { registerTransfer } from "./transfer";
import { toolCatalog } from "../api/tool-catalog";
import { registerTools } from "./tools";

export function registerRoutes(app: OpenAPIHono<AppEnv>): void {
  registerHealth(app);
  registerRemember(app);
  registerRecall(app);
  registerReads(app);
  registerConfig(app);
  registerSearch(app);
  registerAgent(app);
  registerContext(app);
  registerAgentList(app);
  registerMemories(app);
  registerLinks(app);
  registerTransfer(app);
  // The integration surfaces (docs/design.md, "Integration surfaces") over the operations above (operations.ts).
  const catalog = toolCatalog(app);
  registerTools(app, catalog);
  registerMcp(app, catalog);
}
