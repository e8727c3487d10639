export interface AppEnv {
  Bindings: Env;
  Variables: {
    /** The tenant of the authenticated API key: with the path's agent id, the agent's identity. */
    tenantId: string;
  };
}
