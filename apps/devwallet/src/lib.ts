// Pure helpers of the dev wallet: configuration from the page's URL, the namespaces it
// approves, and how requests are shown. No I/O here, so vitest covers them (lib.test.ts).
import type { ProposalTypes, SessionTypes } from '@walletconnect/types';
import { formatEther, fromHex, getAddress, isAddress, isHex, type Address, type Hex } from 'viem';

/** anvil's well-known development mnemonic: every key derived from it is public. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
/** How many of anvil's accounts the picker offers (anvil funds ten). */
export const ACCOUNT_COUNT = 10;
/** anvil's account 1 (0x7099…79C8), the one the wallet starts with. */
export const DEFAULT_ACCOUNT_INDEX = 1;

export interface DevChain {
  /** CAIP-2 id, e.g. `eip155:31337`. */
  caip: string;
  id: number;
  name: string;
}

/** The devnet (`scripts/devnet`) and its bare second chain on the next port, named as the demo names them. */
export const CHAINS: readonly DevChain[] = [
  { caip: 'eip155:31337', id: 31337, name: 'Latch Devnet' },
  { caip: 'eip155:31338', id: 31338, name: 'Latch Devnet B' },
];
export const METHODS = ['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4', 'wallet_switchEthereumChain'];
export const EVENTS = ['chainChanged', 'accountsChanged'];

export interface WalletConfig {
  relayUrl: string;
  projectId: string;
  /** JSON-RPC endpoint per CAIP-2 chain id. */
  rpcUrls: Record<string, string>;
}

/**
 * Where the wallet connects, from the page's location: by default the Latch server that serves
 * the page (its relay at `/relay`, its RPC gateway at `/v1/?chainId=…&projectId=…`).
 * `?relay=`, `?projectId=` and `?rpc31337=` / `?rpc31338=` override them.
 */
export function walletConfig(location: { protocol: string; host: string; origin: string; search: string }): WalletConfig {
  const query = new URLSearchParams(location.search);
  const projectId = query.get('projectId') || 'demo';
  const socket = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const rpcUrls: Record<string, string> = {};
  for (const chain of CHAINS) {
    rpcUrls[chain.caip] =
      query.get(`rpc${chain.id}`) ||
      `${location.origin}/v1/?chainId=${encodeURIComponent(chain.caip)}&projectId=${encodeURIComponent(projectId)}`;
  }
  return { relayUrl: query.get('relay') || `${socket}//${location.host}/relay`, projectId, rpcUrls };
}

/** The chain with this CAIP-2 id, if the wallet has it. */
export function chainByCaip(caip: string): DevChain | undefined {
  return CHAINS.find((chain) => chain.caip === caip);
}

/** What the wallet approves: `address` on every chain it has, with every method and event it handles. */
export function walletNamespaces(address: Address): SessionTypes.Namespaces {
  return {
    eip155: {
      chains: CHAINS.map((chain) => chain.caip),
      accounts: CHAINS.map((chain) => `${chain.caip}:${address}`),
      methods: [...METHODS],
      events: [...EVENTS],
    },
  };
}

export interface Requested {
  chains: string[];
  methods: string[];
  events: string[];
}

/** Required and optional namespaces of a proposal, merged per kind (a namespace key may also be a chain, CAIP-25). */
export function requested(proposal: Pick<ProposalTypes.Struct, 'requiredNamespaces' | 'optionalNamespaces'>): {
  required: Requested;
  optional: Requested;
} {
  const collect = (namespaces: ProposalTypes.RequiredNamespaces | undefined): Requested => {
    const out: Requested = { chains: [], methods: [], events: [] };
    for (const [key, namespace] of Object.entries(namespaces ?? {})) {
      const chains = namespace.chains ?? (key.includes(':') ? [key] : []);
      out.chains.push(...chains.filter((chain) => !out.chains.includes(chain)));
      out.methods.push(...namespace.methods.filter((method) => !out.methods.includes(method)));
      out.events.push(...namespace.events.filter((event) => !out.events.includes(event)));
    }
    return out;
  };
  return { required: collect(proposal.requiredNamespaces), optional: collect(proposal.optionalNamespaces) };
}

/** What a proposal requires that this wallet cannot give (approving it would fail). */
export function unsupported(required: Requested): string[] {
  return [
    ...required.chains.filter((chain) => !chainByCaip(chain)),
    ...required.methods.filter((method) => !METHODS.includes(method)),
    ...required.events.filter((event) => !EVENTS.includes(event)),
  ];
}

/** A personal_sign message as a person reads it: UTF-8 text when its bytes are printable text, else the hex. */
export function decodeMessage(message: string): { text: string; isHex: boolean } {
  if (!isHex(message, { strict: true })) return { text: message, isHex: false };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(fromHex(message as Hex, 'bytes'));
    // Control characters other than line breaks and tabs mean binary data.
    if (!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return { text, isHex: true };
  } catch {
    // Not UTF-8: show the bytes.
  }
  return { text: message, isHex: true };
}

/** personal_sign's params `[message, address]`; some dapps send them the other way round. */
export function personalSignParams(params: unknown): { message: string; address: Address } {
  if (!Array.isArray(params) || params.length < 2) throw new Error('personal_sign params must be [message, address]');
  const [first, second] = params as unknown[];
  if (typeof first !== 'string' || typeof second !== 'string') throw new Error('personal_sign params must be strings');
  if (isAddress(second)) return { message: first, address: getAddress(second) };
  if (isAddress(first)) return { message: second, address: getAddress(first) };
  throw new Error('personal_sign params name no address');
}

export interface TransactionRequest {
  from?: Address;
  to?: Address;
  value: bigint;
  data?: Hex;
  gas?: bigint;
}

const quantity = (value: unknown, name: string): bigint | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !isHex(value, { strict: true }) || value === '0x') {
    throw new Error(`eth_sendTransaction: ${name} must be a hex quantity`);
  }
  return BigInt(value);
};

/** eth_sendTransaction's first param, checked: addresses checksummed, quantities as bigint. */
export function transactionParams(params: unknown): TransactionRequest {
  const tx = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined;
  if (!tx || typeof tx !== 'object') throw new Error('eth_sendTransaction params must be [transaction]');
  const address = (value: unknown, name: string): Address | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || !isAddress(value)) throw new Error(`eth_sendTransaction: ${name} is not an address`);
    return getAddress(value);
  };
  const data = tx.data ?? tx.input;
  if (data !== undefined && data !== null && (typeof data !== 'string' || !isHex(data, { strict: true }))) {
    throw new Error('eth_sendTransaction: data must be hex');
  }
  return {
    from: address(tx.from, 'from'),
    to: address(tx.to, 'to'),
    value: quantity(tx.value, 'value') ?? 0n,
    data: data === undefined || data === null || data === '0x' ? undefined : (data as Hex),
    gas: quantity(tx.gas, 'gas'),
  };
}

/** Wei as ether for the request card, e.g. `0.001 ETH`. */
export function formatValue(wei: bigint): string {
  return `${formatEther(wei)} ETH`;
}

/** wallet_switchEthereumChain's `[{ chainId: '0x…' }]` as a CAIP-2 id. */
export function switchChainParams(params: unknown): string {
  const first = Array.isArray(params) ? (params[0] as { chainId?: unknown } | undefined) : undefined;
  const chainId = first?.chainId;
  if (typeof chainId !== 'string' || !isHex(chainId, { strict: true }) || chainId === '0x') {
    throw new Error('wallet_switchEthereumChain params must be [{ chainId: hex }]');
  }
  return `eip155:${BigInt(chainId).toString()}`;
}

/** eth_signTypedData_v4's params `[address, typedData]` (typed data as JSON text or an object). */
export function typedDataParams(params: unknown): { address: Address; typedData: Record<string, unknown> } {
  if (!Array.isArray(params) || params.length < 2) throw new Error('eth_signTypedData_v4 params must be [address, typedData]');
  const [address, data] = params as unknown[];
  if (typeof address !== 'string' || !isAddress(address)) throw new Error('eth_signTypedData_v4: the first param is not an address');
  const typedData = typeof data === 'string' ? (JSON.parse(data) as unknown) : data;
  if (!typedData || typeof typedData !== 'object') throw new Error('eth_signTypedData_v4: typed data must be an object');
  return { address: getAddress(address), typedData: typedData as Record<string, unknown> };
}

/** The session's account (the address it approved), from its eip155 namespace. */
export function sessionAddress(session: Pick<SessionTypes.Struct, 'namespaces'>): Address | undefined {
  const account = session.namespaces.eip155?.accounts[0];
  const address = account?.split(':')[2];
  return address && isAddress(address) ? getAddress(address) : undefined;
}
