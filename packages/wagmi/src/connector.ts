import type { Eip1193Provider, Latch, Network } from '@latch/react';
import { createConnector, ProviderNotFoundError } from '@wagmi/core';
import { getAddress, SwitchChainError, UserRejectedRequestError, type Address, type Chain } from 'viem';

/** The connector's id and type in wagmi's state (`useAccount().connector`). */
export const LATCH_CONNECTOR_ID = 'latch' as const;

export interface LatchConnectorOptions {
  /** Shown by wagmi as the connector's name; default `Latch`. */
  name?: string;
}

/** The connected EVM account as Latch knows it, or undefined when Latch has none. */
interface Eip155Session {
  address: Address;
  chainId: number;
  provider: Eip1193Provider;
}

function eip155Session(latch: Latch): Eip155Session | undefined {
  const { status, connectors, activeConnectorId } = latch.connection.getState();
  const { address, caipNetworkId } = latch.account.getState();
  const connector = connectors.find(({ id }) => id === activeConnectorId);
  if (status !== 'connected' || !connector || connector.namespace === 'solana') return undefined;
  if (!address || !caipNetworkId?.startsWith('eip155:')) return undefined;
  const chainId = Number(caipNetworkId.slice('eip155:'.length));
  if (!Number.isSafeInteger(chainId)) return undefined;
  return { address: getAddress(address), chainId, provider: connector.provider };
}

/** Resolves once Latch is no longer restoring the last session (`connecting` on load, behaviour 2.5). */
function settled(latch: Latch): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (latch.connection.getState().status === 'connecting') return;
      unsubscribe();
      resolve();
    };
    const unsubscribe = latch.connection.subscribe(check);
    check();
  });
}

/**
 * Resolves with the EVM session once the visitor connects through the modal; rejects when the
 * modal closes first (wagmi's `UserRejectedRequestError`, as a declined wallet prompt).
 */
function connectThroughModal(latch: Latch): Promise<Eip155Session> {
  return new Promise((resolve, reject) => {
    const stop: Array<() => void> = [];
    const finish = () => stop.forEach((unsubscribe) => unsubscribe());
    const check = () => {
      const session = eip155Session(latch);
      if (session) {
        finish();
        resolve(session);
      } else if (!latch.modal.store.getState().open && latch.connection.getState().status !== 'connecting') {
        finish();
        reject(new UserRejectedRequestError(new Error('The Latch modal was closed without connecting')));
      }
    };
    latch.modal.open({ namespace: 'eip155' });
    stop.push(latch.connection.subscribe(check), latch.account.subscribe(check), latch.modal.store.subscribe(check));
    check();
  });
}

/**
 * A wagmi connector whose wallet is whatever the visitor connects through the Latch modal
 * (EIP-6963, WalletConnect). State follows both ways: Latch's account, chain and disconnect are
 * wagmi's `change`/`disconnect`, and wagmi's `disconnect`/`switchChain` act on Latch.
 */
export function latchConnector(latch: Latch, options: LatchConnectorOptions = {}) {
  return createConnector<Eip1193Provider>((config) => {
    // What wagmi was last told, so a store update that changes nothing emits nothing.
    let reported: Eip155Session | undefined;
    // Set while wagmi's own connect/disconnect runs: wagmi updates its state itself then.
    let ownCall = false;
    let stopFollowing: (() => void) | undefined;

    const follow = () => {
      const session = eip155Session(latch);
      const before = reported;
      reported = session;
      if (ownCall) return;
      if (!session) {
        if (before) config.emitter.emit('disconnect');
        return;
      }
      // A connection made from the Latch modal (or restored by it) becomes wagmi's too.
      if (!before) return config.emitter.emit('connect', { accounts: [session.address], chainId: session.chainId });
      if (before.address !== session.address) config.emitter.emit('change', { accounts: [session.address] });
      if (before.chainId !== session.chainId) config.emitter.emit('change', { chainId: session.chainId });
    };

    return {
      id: LATCH_CONNECTOR_ID,
      name: options.name ?? 'Latch',
      type: LATCH_CONNECTOR_ID,
      async setup() {
        if (stopFollowing) return;
        reported = eip155Session(latch);
        const unsubscribeConnection = latch.connection.subscribe(follow);
        const unsubscribeAccount = latch.account.subscribe(follow);
        stopFollowing = () => {
          unsubscribeConnection();
          unsubscribeAccount();
        };
      },
      async connect<withCapabilities extends boolean = false>(parameters?: {
        chainId?: number;
        isReconnecting?: boolean;
        withCapabilities?: withCapabilities | boolean;
      }) {
        ownCall = true;
        let session: Eip155Session;
        try {
          await settled(latch);
          session = eip155Session(latch) ?? (await (parameters?.isReconnecting ? missing() : connectThroughModal(latch)));
          if (parameters?.chainId !== undefined && parameters.chainId !== session.chainId) {
            await switchTo(parameters.chainId);
            session = eip155Session(latch) ?? session;
          }
        } finally {
          reported = eip155Session(latch);
          ownCall = false;
        }
        // wagmi v3 asks for the accounts with their capabilities (none known here) when `withCapabilities`.
        const accounts = parameters?.withCapabilities
          ? [{ address: session.address, capabilities: {} }]
          : [session.address];
        // The shape wagmi's generic asks for is the one chosen above; TypeScript cannot follow that.
        return { accounts, chainId: session.chainId } as never;
      },
      async disconnect() {
        ownCall = true;
        try {
          latch.disconnect();
        } finally {
          reported = undefined;
          ownCall = false;
        }
      },
      async getAccounts() {
        const session = eip155Session(latch);
        return session ? [session.address] : [];
      },
      async getChainId() {
        const session = eip155Session(latch);
        if (session) return session.chainId;
        const [first] = config.chains;
        if (!first) throw new ProviderNotFoundError();
        return first.id;
      },
      async getProvider() {
        const session = eip155Session(latch);
        if (!session) throw new ProviderNotFoundError();
        return session.provider;
      },
      async isAuthorized() {
        await settled(latch);
        return eip155Session(latch) !== undefined;
      },
      async switchChain({ chainId }) {
        await switchTo(chainId);
        const chain = config.chains.find(({ id }) => id === chainId);
        if (!chain) throw new SwitchChainError(new Error(`Chain ${chainId} is not in the wagmi config`));
        return chain;
      },
      // Latch watches the wallet's provider itself; its stores are what this connector follows.
      onAccountsChanged() {},
      onChainChanged() {},
      onDisconnect() {},
    };

    async function switchTo(chainId: number) {
      const network = latch.networks.find(({ caipNetworkId }) => caipNetworkId === `eip155:${chainId}`);
      if (!network) throw new SwitchChainError(new Error(`Chain ${chainId} is not one of Latch's networks`));
      try {
        await latch.switchNetwork(network);
      } catch (cause) {
        const kind = (cause as { kind?: unknown } | null)?.kind;
        if (kind === 'rejected') throw new UserRejectedRequestError(cause as Error);
        throw new SwitchChainError(cause as Error);
      }
    }
  });
}

function missing(): Promise<never> {
  return Promise.reject(new ProviderNotFoundError());
}

/** Latch's EVM networks as viem chains, for wagmi's `createConfig({ chains })`. */
export function latchWagmiChains(latch: Latch): readonly [Chain, ...Chain[]] {
  const chains = latch.networks.filter(isEip155).map(toChain);
  const [first, ...rest] = chains;
  if (!first) throw new Error('Latch has no eip155 network for wagmi');
  return [first, ...rest];
}

const isEip155 = (network: Network) => network.chainNamespace === 'eip155';

function toChain(network: Network): Chain {
  return {
    id: Number(network.caipNetworkId.slice('eip155:'.length)),
    name: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: { default: { http: network.rpcUrls.default.http } },
  };
}
