// A gateway with RDMA on (softnic) for the fault and load tests, and the environment such a
// gateway and its helper processes need: VGWRDMA_SHIM_DIR is passed through when set, so a run
// can point every process at one build of the native shims.
import { type GatewayProcess, type StartOptions, startGateway } from './gateway-process.js';

/** The environment variables a child process should inherit for RDMA. */
export function rdmaEnv(): Record<string, string> {
  const dir = process.env.VGWRDMA_SHIM_DIR;
  return dir ? { VGWRDMA_SHIM_DIR: dir } : {};
}

export interface RdmaGatewayOptions extends Omit<StartOptions, 'globalArgs'> {
  /** Address of the softnic transport; default 127.0.0.1. */
  readonly rdmaIp?: string;
  /** More global flags (--pool-buf-count ...). */
  readonly args?: readonly string[];
}

export function startRdmaGateway(options: RdmaGatewayOptions = {}): Promise<GatewayProcess> {
  const { rdmaIp = '127.0.0.1', args = [], env = {}, ...rest } = options;
  return startGateway({
    ...rest,
    globalArgs: ['--quiet', '--rdma-ip', rdmaIp, ...args],
    env: { ...rdmaEnv(), ...env },
  });
}
