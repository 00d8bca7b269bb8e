// The dev wallet's core, without React: the official wallet client (@walletconnect/sign-client
// 2.21.8) with anvil's public keys. It keeps nothing of its own about sessions, proposals or
// requests: those live in the sign-client's stores (IndexedDB), so a reload shows them again.
import { mnemonicToSeedSync } from '@scure/bip39';
import SignClient from '@walletconnect/sign-client';
import type { PendingRequestTypes, ProposalTypes, SessionTypes } from '@walletconnect/types';
import { getSdkError } from '@walletconnect/utils';
import { createWalletClient, defineChain, http, type Address, type TypedDataDefinition } from 'viem';
import { HDKey, hdKeyToAccount, type HDAccount } from 'viem/accounts';
import {
  ACCOUNT_COUNT,
  CHAINS,
  DEFAULT_ACCOUNT_INDEX,
  DEV_MNEMONIC,
  chainByCaip,
  decodeMessage,
  personalSignParams,
  sessionAddress,
  switchChainParams,
  transactionParams,
  typedDataParams,
  walletNamespaces,
  type WalletConfig,
} from './lib';

/** Keys of the wallet's own two settings in localStorage. */
const ACCOUNT_KEY = 'latch-devwallet:account';
const CHAIN_KEY = 'latch-devwallet:chain';
/** The sign-client's keys get this prefix, so a dapp on the same origin (the demo) keeps its own. */
const STORAGE_PREFIX = 'latch-devwallet';

/** anvil's accounts 0–9, derived once from the public mnemonic (one seed, then cheap child keys). */
function devAccounts(): HDAccount[] {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC));
  return Array.from({ length: ACCOUNT_COUNT }, (_, addressIndex) => hdKeyToAccount(root, { addressIndex }));
}

export interface WalletState {
  status: 'starting' | 'ready' | 'failed';
  accountIndex: number;
  /** The active chain (CAIP-2), announced to dapps with `chainChanged`. */
  chain: string;
  proposals: ProposalTypes.Struct[];
  requests: PendingRequestTypes.Struct[];
  sessions: SessionTypes.Struct[];
  /** What just happened (a live region reads it out). */
  notice: string;
  /** The last failure, if any. */
  error: string;
}

type Listener = () => void;

export class DevWallet {
  readonly accounts = devAccounts();
  private client: SignClient | undefined;
  private listeners = new Set<Listener>();
  private state: WalletState;

  constructor(readonly config: WalletConfig) {
    const stored = Number(localStorage.getItem(ACCOUNT_KEY));
    const chain = localStorage.getItem(CHAIN_KEY) ?? '';
    this.state = {
      status: 'starting',
      accountIndex: Number.isInteger(stored) && stored > 0 && stored < ACCOUNT_COUNT ? stored : DEFAULT_ACCOUNT_INDEX,
      chain: chainByCaip(chain) ? chain : CHAINS[0]!.caip,
      proposals: [],
      requests: [],
      sessions: [],
      notice: '',
      error: '',
    };
  }

  /** Opens the sign-client (restoring its stores) and listens for the dapps. */
  async start(): Promise<void> {
    try {
      const client = await SignClient.init({
        relayUrl: this.config.relayUrl,
        projectId: this.config.projectId,
        customStoragePrefix: STORAGE_PREFIX,
        // Nothing leaves for the vendor's telemetry endpoint.
        telemetryEnabled: false,
        // Every request shows at once (the queue would hold back all but the first until it is answered).
        signConfig: { disableRequestQueue: true },
        metadata: {
          name: 'Latch dev wallet',
          description: "A development wallet with anvil's public test keys",
          url: location.origin,
          icons: [],
        },
      });
      // The sign-client asks the vendor's hosted Verify API about every proposal and request
      // (by message hash). This wallet talks only to its Latch server: no attestation, so each
      // request's verify context stays UNKNOWN (the client handles `undefined` as "none").
      client.core.verify.resolve = (async () => undefined) as unknown as typeof client.core.verify.resolve;
      this.client = client;
      client.on('session_proposal', () => this.refresh('A dapp asks to connect.'));
      client.on('session_request', ({ params }) => this.refresh(`New request: ${params.request.method}.`));
      client.on('session_delete', ({ topic }) => this.refresh(`The dapp ended session ${short(topic)}.`));
      client.on('session_expire', ({ topic }) => this.refresh(`Session ${short(topic)} expired.`));
      client.on('proposal_expire', () => this.refresh('A connection request expired.'));
      client.on('session_request_expire', () => this.refresh('A request expired.'));
      this.set({ status: 'ready' });
      this.refresh();
    } catch (error) {
      this.set({ status: 'failed', error: `Could not start the wallet client: ${message(error)}` });
    }
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): WalletState => this.state;

  get account(): HDAccount {
    return this.accounts[this.state.accountIndex]!;
  }

  selectAccount(index: number): void {
    if (!this.accounts[index]) return;
    localStorage.setItem(ACCOUNT_KEY, String(index));
    this.set({ accountIndex: index, notice: `Account ${index} selected for new sessions.` });
  }

  async pair(uri: string): Promise<void> {
    await this.run(async (client) => {
      if (!uri.trim().startsWith('wc:')) throw new Error('A WalletConnect URI starts with wc:');
      await client.pair({ uri: uri.trim() });
      return 'Paired. Waiting for the connection request…';
    });
  }

  async approveProposal(id: number): Promise<void> {
    await this.run(async (client) => {
      const { acknowledged } = await client.approve({ id, namespaces: walletNamespaces(this.account.address) });
      const session = await acknowledged();
      return `Connected to ${session.peer.metadata.name}.`;
    });
  }

  async rejectProposal(id: number): Promise<void> {
    await this.run(async (client) => {
      await client.reject({ id, reason: getSdkError('USER_REJECTED') });
      return 'Connection request rejected.';
    });
  }

  async approveRequest(request: PendingRequestTypes.Struct): Promise<void> {
    await this.run(async (client) => {
      const { method, params } = request.params.request;
      let result: unknown;
      try {
        result = await this.perform(request);
      } catch (error) {
        // The dapp hears why (its own code, else an internal error), not a timeout.
        const code = (error as { code?: unknown }).code;
        await client.respond({
          topic: request.topic,
          response: {
            id: request.id,
            jsonrpc: '2.0',
            error: { code: typeof code === 'number' ? code : -32603, message: message(error) },
          },
        });
        throw error;
      }
      await client.respond({ topic: request.topic, response: { id: request.id, jsonrpc: '2.0', result } });
      if (method === 'wallet_switchEthereumChain') await this.announceChain(switchChainParams(params));
      return `${method} approved.`;
    });
  }

  async rejectRequest(request: PendingRequestTypes.Struct): Promise<void> {
    await this.run(async (client) => {
      // EIP-1193's "user rejected" code, with the WalletConnect SDK's message.
      const error = { code: 4001, message: getSdkError('USER_REJECTED').message };
      await client.respond({ topic: request.topic, response: { id: request.id, jsonrpc: '2.0', error } });
      return `${request.params.request.method} rejected.`;
    });
  }

  /** Makes `chain` the active chain and tells every connected dapp (`chainChanged`, then `accountsChanged`). */
  async switchChain(chain: string): Promise<void> {
    await this.run(async () => {
      await this.announceChain(chain);
      return `Switched to ${chainByCaip(chain)?.name ?? chain}.`;
    });
  }

  async disconnect(topic: string): Promise<void> {
    await this.run(async (client) => {
      await client.disconnect({ topic, reason: getSdkError('USER_DISCONNECTED') });
      return 'Disconnected.';
    });
  }

  /** Signs or sends what the request asks and returns the JSON-RPC result. */
  private async perform(request: PendingRequestTypes.Struct): Promise<unknown> {
    const { chainId, request: call } = request.params;
    const session = this.client?.session.get(request.topic);
    const sessionAccount = session && sessionAddress(session);
    switch (call.method) {
      case 'personal_sign': {
        const { message: text, address } = personalSignParams(call.params);
        const account = this.own(address);
        return account.signMessage({ message: decodeMessage(text).isHex ? { raw: text as `0x${string}` } : text });
      }
      case 'eth_signTypedData_v4': {
        const { address, typedData } = typedDataParams(call.params);
        return this.own(address).signTypedData(typedData as unknown as TypedDataDefinition);
      }
      case 'eth_sendTransaction': {
        const tx = transactionParams(call.params);
        const account = this.own(tx.from ?? sessionAccount ?? this.account.address);
        const chain = chainByCaip(chainId);
        const rpcUrl = this.config.rpcUrls[chainId];
        if (!chain || !rpcUrl) throw new Error(`No RPC url provided for chainId: ${chainId}`);
        const client = createWalletClient({
          account,
          chain: defineChain({
            id: chain.id,
            name: chain.name,
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            rpcUrls: { default: { http: [rpcUrl] } },
          }),
          transport: http(rpcUrl),
        });
        return client.sendTransaction({ to: tx.to, value: tx.value, data: tx.data, gas: tx.gas });
      }
      case 'wallet_switchEthereumChain': {
        const target = switchChainParams(call.params);
        // EIP-3326: 4902 tells the dapp the chain is unknown here.
        if (!chainByCaip(target)) throw Object.assign(new Error(`Unrecognized chain ID ${target}`), { code: 4902 });
        return null;
      }
      default:
        throw new Error(`The dev wallet does not handle ${call.method}`);
    }
  }

  /** One of the wallet's accounts, or an error naming the address it does not hold. */
  private own(address: Address): HDAccount {
    const account = this.accounts.find((a) => a.address.toLowerCase() === address.toLowerCase());
    if (!account) throw new Error(`The dev wallet holds no key for ${address}`);
    return account;
  }

  private async announceChain(chain: string): Promise<void> {
    const target = chainByCaip(chain);
    if (!target) throw new Error(`Unrecognized chain ID ${chain}`);
    const client = this.client;
    if (!client) throw new Error('The wallet client is not ready');
    localStorage.setItem(CHAIN_KEY, chain);
    this.set({ chain });
    for (const session of client.session.getAll()) {
      const address = sessionAddress(session) ?? this.account.address;
      // A session approved elsewhere may lack the chain; the wallet may widen its own namespaces.
      if (!session.namespaces.eip155?.chains?.includes(chain)) {
        const { acknowledged } = await client.update({ topic: session.topic, namespaces: walletNamespaces(address) });
        await acknowledged();
      }
      await client.emit({ topic: session.topic, chainId: chain, event: { name: 'chainChanged', data: target.id } });
      await client.emit({
        topic: session.topic,
        chainId: chain,
        event: { name: 'accountsChanged', data: [`${chain}:${address}`] },
      });
    }
  }

  /** Runs an action, then shows its outcome and re-reads the sign-client's stores. */
  private async run(action: (client: SignClient) => Promise<string>): Promise<void> {
    const client = this.client;
    if (!client) {
      this.set({ error: 'The wallet client is not ready yet.' });
      return;
    }
    try {
      const notice = await action(client);
      this.set({ error: '' });
      this.refresh(notice);
    } catch (error) {
      this.set({ error: message(error) });
      this.refresh();
    }
  }

  private refresh(notice?: string): void {
    const client = this.client;
    if (!client) return;
    const now = Date.now() / 1000;
    this.set({
      proposals: client.proposal.getAll().filter((p) => p.expiryTimestamp > now),
      requests: client.getPendingSessionRequests(),
      sessions: client.session.getAll(),
      ...(notice === undefined ? {} : { notice }),
    });
  }

  private set(patch: Partial<WalletState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
}

function short(topic: string): string {
  return `${topic.slice(0, 6)}…${topic.slice(-4)}`;
}
