import { describe, expect, it } from 'vitest';
import { stringToHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import {
  DEFAULT_ACCOUNT_INDEX,
  DEV_MNEMONIC,
  decodeMessage,
  formatValue,
  personalSignParams,
  requested,
  sessionAddress,
  switchChainParams,
  transactionParams,
  typedDataParams,
  unsupported,
  walletConfig,
  walletNamespaces,
} from './lib';

const ACCOUNT_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const location = (search = '', origin = 'http://127.0.0.1:8787') => {
  const url = new URL(origin);
  return { protocol: url.protocol, host: url.host, origin: url.origin, search };
};

describe('walletConfig', () => {
  it('defaults to the serving Latch server: its relay and its RPC gateway with project demo', () => {
    expect(walletConfig(location())).toEqual({
      relayUrl: 'ws://127.0.0.1:8787/relay',
      projectId: 'demo',
      rpcUrls: {
        'eip155:31337': 'http://127.0.0.1:8787/v1/?chainId=eip155%3A31337&projectId=demo',
        'eip155:31338': 'http://127.0.0.1:8787/v1/?chainId=eip155%3A31338&projectId=demo',
      },
    });
  });

  it('uses wss on an https page', () => {
    expect(walletConfig(location('', 'https://latch.example')).relayUrl).toBe('wss://latch.example/relay');
  });

  it('takes ?relay=, ?projectId= and ?rpc<chain>= overrides', () => {
    const config = walletConfig(location('?relay=ws://127.0.0.1:9/relay&projectId=p1&rpc31337=http://127.0.0.1:8545'));
    expect(config.relayUrl).toBe('ws://127.0.0.1:9/relay');
    expect(config.rpcUrls['eip155:31337']).toBe('http://127.0.0.1:8545');
    expect(config.rpcUrls['eip155:31338']).toBe('http://127.0.0.1:8787/v1/?chainId=eip155%3A31338&projectId=p1');
  });
});

describe('keys', () => {
  it("anvil's account 1 is the default", () => {
    expect(mnemonicToAccount(DEV_MNEMONIC, { addressIndex: DEFAULT_ACCOUNT_INDEX }).address).toBe(ACCOUNT_1);
  });
});

describe('namespaces', () => {
  it('approves the account on both devnet chains with every handled method and event', () => {
    expect(walletNamespaces(ACCOUNT_1)).toEqual({
      eip155: {
        chains: ['eip155:31337', 'eip155:31338'],
        accounts: [`eip155:31337:${ACCOUNT_1}`, `eip155:31338:${ACCOUNT_1}`],
        methods: ['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4', 'wallet_switchEthereumChain'],
        events: ['chainChanged', 'accountsChanged'],
      },
    });
    expect(sessionAddress({ namespaces: walletNamespaces(ACCOUNT_1) })).toBe(ACCOUNT_1);
    expect(sessionAddress({ namespaces: {} })).toBeUndefined();
  });

  it('merges required and optional namespaces, chain-keyed ones included', () => {
    const { required, optional } = requested({
      requiredNamespaces: {
        eip155: { chains: ['eip155:31337'], methods: ['personal_sign'], events: ['chainChanged'] },
        'eip155:1': { methods: ['personal_sign', 'eth_sign'], events: [] },
      },
      optionalNamespaces: { eip155: { chains: ['eip155:31338'], methods: ['eth_signTypedData_v4'], events: [] } },
    });
    expect(required).toEqual({
      chains: ['eip155:31337', 'eip155:1'],
      methods: ['personal_sign', 'eth_sign'],
      events: ['chainChanged'],
    });
    expect(optional.chains).toEqual(['eip155:31338']);
    expect(unsupported(required)).toEqual(['eip155:1', 'eth_sign']);
    expect(unsupported(optional)).toEqual([]);
  });
});

describe('personal_sign', () => {
  it('shows hex-encoded UTF-8 as text, and binary or plain messages as they are', () => {
    expect(decodeMessage(stringToHex('hello\nLatch ✓'))).toEqual({ text: 'hello\nLatch ✓', isHex: true });
    expect(decodeMessage('0x00ff10')).toEqual({ text: '0x00ff10', isHex: true });
    expect(decodeMessage('0xc328')).toEqual({ text: '0xc328', isHex: true }); // not UTF-8
    expect(decodeMessage('plain words')).toEqual({ text: 'plain words', isHex: false });
  });

  it('reads [message, address] in either order and checksums the address', () => {
    const lower = ACCOUNT_1.toLowerCase();
    expect(personalSignParams(['0x68', lower])).toEqual({ message: '0x68', address: ACCOUNT_1 });
    expect(personalSignParams([lower, '0x68'])).toEqual({ message: '0x68', address: ACCOUNT_1 });
    expect(() => personalSignParams(['0x68'])).toThrow('personal_sign params must be [message, address]');
    expect(() => personalSignParams(['a', 'b'])).toThrow('personal_sign params name no address');
  });
});

describe('eth_sendTransaction', () => {
  it('checks addresses and quantities', () => {
    expect(transactionParams([{ from: ACCOUNT_1.toLowerCase(), to: ACCOUNT_1, value: '0x2386f26fc10000', data: '0x' }])).toEqual({
      from: ACCOUNT_1,
      to: ACCOUNT_1,
      value: 10_000_000_000_000_000n,
      data: undefined,
      gas: undefined,
    });
    expect(transactionParams([{ input: '0xdeadbeef', gas: '0x5208' }])).toMatchObject({ data: '0xdeadbeef', gas: 21000n, value: 0n });
    expect(() => transactionParams([])).toThrow('eth_sendTransaction params must be [transaction]');
    expect(() => transactionParams([{ to: '0x12' }])).toThrow('eth_sendTransaction: to is not an address');
    expect(() => transactionParams([{ value: 10 }])).toThrow('eth_sendTransaction: value must be a hex quantity');
    expect(() => transactionParams([{ data: 'zz' }])).toThrow('eth_sendTransaction: data must be hex');
    expect(formatValue(10_000_000_000_000_000n)).toBe('0.01 ETH');
  });
});

describe('other methods', () => {
  it('wallet_switchEthereumChain names a CAIP-2 chain', () => {
    expect(switchChainParams([{ chainId: '0x7a6a' }])).toBe('eip155:31338');
    expect(() => switchChainParams([{ chainId: 31338 }])).toThrow('wallet_switchEthereumChain params must be [{ chainId: hex }]');
  });

  it('eth_signTypedData_v4 takes typed data as JSON text or an object', () => {
    const typedData = { domain: { name: 'x' }, types: {}, primaryType: 'X', message: {} };
    expect(typedDataParams([ACCOUNT_1, JSON.stringify(typedData)])).toEqual({ address: ACCOUNT_1, typedData });
    expect(typedDataParams([ACCOUNT_1, typedData]).typedData).toBe(typedData);
    expect(() => typedDataParams(['nope', typedData])).toThrow('the first param is not an address');
  });
});
