/** The agent's parameters (docs/design.md, "Parameters") as getConfig and updateConfig answer them. */
import { AgentParamsSchema } from "../config/params";

export const ConfigSchema = AgentParamsSchema.openapi("AgentConfig");
