/** What a wallet connection is reported with. */
export interface ConnectorData {
  name: string;
  connectorType: string;
}

/**
 * Events a Latch instance reports to the host (`onEvent`) and, unless
 * `analytics: false`, to the Latch server (behaviour 6.14 "Analytics").
 */
export type LatchEvent =
  | { type: 'MODAL_OPEN'; data: { connected: boolean } }
  | { type: 'MODAL_CLOSE'; data: { connected: boolean } }
  | { type: 'SELECT_WALLET'; data: ConnectorData }
  | { type: 'CONNECT_SUCCESS'; data: ConnectorData & { caipNetworkId: string }; address: string }
  | { type: 'CONNECT_ERROR'; data: ConnectorData & { message: string; rejected: boolean } }
  | { type: 'DISCONNECT_SUCCESS'; data: Record<string, never> }
  | { type: 'SIWX_AUTH_SUCCESS'; data: { caipNetworkId: string }; address: string }
  | { type: 'SIWX_AUTH_ERROR'; data: { message: string } }
  /** Once per mount in a browser: what the host configured. */
  | { type: 'INITIALIZE'; data: { networks: string[]; sdkVersion: string } }
  | { type: 'SWITCH_NETWORK'; data: { caipNetworkId: string } }
  | { type: 'CLICK_ALL_WALLETS'; data: Record<string, never> }
  /** The embedded wallet's social login succeeded (behaviour 6.14 "Analytics"). */
  | { type: 'SOCIAL_LOGIN_SUCCESS'; data: { provider: string } }
  /** The wallet refused or failed to end its session; the page is disconnected anyway. */
  | { type: 'DISCONNECT_ERROR'; data: { message: string } }
  /** Something inside the kit failed that the visitor did not cause (a chunk or module load). */
  | { type: 'INTERNAL_SDK_ERROR'; data: { message: string } };

export type LatchEventListener = (event: LatchEvent) => void;

export interface EventBus {
  emit(event: LatchEvent): void;
  subscribe(listener: LatchEventListener): () => void;
}

export function createEventBus(): EventBus {
  const listeners = new Set<LatchEventListener>();
  return {
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
