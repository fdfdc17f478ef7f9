// A descriptor as the RDMA plugin's edge hands it to CuServer for a signed request from this host
// (the tests' agents run on 127.0.0.1): granted, with its agent.
import type { RdmaDescriptor } from '@vgwrdma/backend-contract';
import { AgentPolicy, decideRdmaGrant, grantRdma } from '../src/index.js';

export function granted(descriptor: RdmaDescriptor): RdmaDescriptor {
  const auth = { anonymous: false, payload: { kind: 'unsigned' } };
  grantRdma(descriptor, decideRdmaGrant(descriptor, auth, '127.0.0.1', new AgentPolicy()));
  return descriptor;
}
