// @vgwrdma/test-kit: shared test scaffolding (private).
export {
  GATEWAY_CHILD_SCRIPT,
  type GatewayChild,
  type GatewayChildOptions,
  startGatewayChild,
} from './gateway-child-process.js';
