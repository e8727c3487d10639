/**
 * An agent's side of the account's fair share (model-share-object.ts): each text call asks the
 * coordinator of its model for a permit, as its tenant and with its tenant's weight. A coordinator
 * that cannot be reached lets the call go (logged): the agent's own budget and the 429 hold still
 * bound it, and the fair share must not become the outage.
 */
import type { CallPermits } from "../workers-ai/throttled-ai";

/** The coordinator's method as its RPC stub offers it. */
interface ShareStub {
  acquire(tenant: string, weight: number, maxWaitMs: number): Promise<boolean>;
}

export interface ShareNamespace {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): ShareStub;
}

export function modelPermits(namespace: ShareNamespace, model: string, caller: () => { tenant: string; weight: number }): CallPermits {
  const stub = namespace.get(namespace.idFromName(`text:${model}`));
  return {
    async acquire(maxWaitMs) {
      const { tenant, weight } = caller();
      try {
        return await stub.acquire(tenant, weight, maxWaitMs);
      } catch (err) {
        console.warn("the account's model coordinator did not answer; the call goes without a permit", err);
        return true;
      }
    },
  };
}
