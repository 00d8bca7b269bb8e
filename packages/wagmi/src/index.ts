export { LATCH_CONNECTOR_ID, latchConnector, latchWagmiChains, type LatchConnectorOptions } from './connector.js';
export { latchTransports } from './transports.js';
