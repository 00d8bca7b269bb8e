// The official Apache-2.0 wallet client (@walletconnect/sign-client 2.21.8, as
// pinned by relay-conformance) driven line by line from stdin, for the Rust
// interop tests (tests/interop.rs, tests/provider.rs) and the e2e fixture.
//
// Usage: node wallet.mjs <relayUrl> [rpc]
//   rpc (or $WALLET_RPC): where eth_sendTransaction goes: one URL for every
//   chain, or `eip155:31337=http://…,eip155:31338=http://…`.
//
// Prints one JSON object per line for everything that happens. It signs with
// anvil's account 1 (viem): approves every proposal with an eip155 namespace
// for the chains asked for among eip155:1, 31337 and 31338, plus the two
// devnet chains; answers personal_sign with a real signature and
// eth_sendTransaction with the hash of a transaction sent to the chain's RPC
// URL, wallet_switchEthereumChain by adding the chain to the session (4902
// for chains it does not know). Anything else, a transaction for a chain without an RPC URL, and every
// request in `reject` mode get "5000 User rejected.".
import { createInterface } from "node:readline";

import { createWalletClient, http, isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

import { client, shut } from "../../../relay-conformance/lib/harness.mjs";

const KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const account = privateKeyToAccount(KEY);
const address = account.address; // 0x70997970C51812dc3A010C7d01b50e0d17dc79C8
const SUPPORTED = ["eip155:1", "eip155:31337", "eip155:31338"];
const DEVNET = ["eip155:31337", "eip155:31338"];

const relayUrl = process.argv[2];
const rpcArg = process.argv[3] ?? process.env.WALLET_RPC ?? "";
/** CAIP-2 → RPC URL (`*` for a single URL given for every chain). */
const rpcUrls = Object.fromEntries(
  rpcArg
    .split(",")
    .filter(Boolean)
    .map((entry) => (entry.includes("=") ? entry.split("=", 2) : ["*", entry])),
);
const out = (object) => process.stdout.write(JSON.stringify(object) + "\n");
const USER_REJECTED = { code: 5000, message: "User rejected." };

/** The requested chains the wallet supports, in the dapp's order, then the devnet chains. */
function approvedChains(params) {
  const asked = [params.requiredNamespaces, params.optionalNamespaces]
    .flatMap((namespaces) => Object.entries(namespaces ?? {}))
    .flatMap(([key, namespace]) => (key.includes(":") ? [key] : (namespace.chains ?? [])));
  return [...new Set([...asked.filter((chain) => SUPPORTED.includes(chain)), ...DEVNET])];
}

const namespaces = (chains) => ({
  eip155: {
    chains,
    accounts: chains.map((chain) => `${chain}:${address}`),
    methods: ["personal_sign", "eth_sendTransaction", "wallet_switchEthereumChain"],
    events: ["accountsChanged", "chainChanged"],
  },
});

async function sign(method, params, chainId, topic) {
  if (method === "personal_sign") {
    const [message] = params;
    return account.signMessage({ message: isHex(message) ? { raw: message } : message });
  }
  if (method === "wallet_switchEthereumChain") {
    // As a wallet does for a chain the session lacks: add it (session update), switch, answer null.
    const target = `eip155:${parseInt(params[0].chainId, 16)}`;
    if (!SUPPORTED.includes(target)) return { error: { code: 4902, message: `Unrecognized chain ${target}` } };
    const granted = wallet.session.get(topic).namespaces.eip155.chains;
    if (!granted.includes(target)) {
      await (await wallet.update({ topic, namespaces: namespaces([...granted, target]) })).acknowledged();
    }
    await wallet.emit({ topic, chainId: target, event: { name: "chainChanged", data: Number(target.split(":")[1]) } });
    return null;
  }
  if (method === "eth_sendTransaction") {
    const url = rpcUrls[chainId] ?? rpcUrls["*"];
    if (!url) return undefined;
    const [tx] = params;
    const wallet = createWalletClient({ account, transport: http(url) });
    return wallet.sendTransaction({
      chain: null,
      to: tx.to,
      data: tx.data,
      value: tx.value === undefined ? undefined : BigInt(tx.value),
      gas: tx.gas === undefined ? undefined : BigInt(tx.gas),
    });
  }
  return undefined;
}

const wallet = await client("wallet", relayUrl);
let topic;
let rejecting = false;

wallet.on("session_proposal", async ({ id, params }) => {
  out({ event: "proposal", id, requiredNamespaces: params.requiredNamespaces, proposer: params.proposer.metadata });
  try {
    const approved = await wallet.approve({ id, namespaces: namespaces(approvedChains(params)) });
    topic = approved.topic;
    await approved.acknowledged();
    out({ event: "approved", topic });
  } catch (error) {
    out({ event: "error", cmd: "approve", message: error.message });
  }
});
wallet.on("session_request", async ({ id, topic, params }) => {
  const { method } = params.request;
  out({ event: "request", method, params: params.request.params, chainId: params.chainId });
  let response;
  try {
    const result = rejecting ? undefined : await sign(method, params.request.params, params.chainId, topic);
    response = result === undefined ? { error: USER_REJECTED } : result?.error ? result : { result };
  } catch (error) {
    response = { error: { code: -32603, message: error?.shortMessage ?? error?.message ?? String(error) } };
  }
  await wallet.respond({ topic, response: { id, jsonrpc: "2.0", ...response } });
  out({ event: "responded", method, ...response });
});
wallet.on("session_delete", ({ topic }) => out({ event: "deleted", topic }));
wallet.on("session_ping", ({ topic }) => out({ event: "pinged", topic }));

const commands = {
  pair: async (uri) => wallet.pair({ uri }),
  accounts: async () =>
    wallet.emit({ topic, chainId: "eip155:1", event: { name: "accountsChanged", data: [`eip155:1:${address}`] } }),
  chain: async () => wallet.emit({ topic, chainId: "eip155:1", event: { name: "chainChanged", data: 1 } }),
  // The wallet's user switches network: chainChanged, then that chain's accounts.
  switch: async (chainId = "eip155:31338") => {
    const reference = Number(chainId.split(":")[1]);
    await wallet.emit({ topic, chainId, event: { name: "chainChanged", data: reference } });
    await wallet.emit({ topic, chainId, event: { name: "accountsChanged", data: [`${chainId}:${address}`] } });
  },
  reject: async () => {
    rejecting = true;
  },
  accept: async () => {
    rejecting = false;
  },
  update: async () => (await wallet.update({ topic, namespaces: namespaces(["eip155:1", "eip155:137"]) })).acknowledged(),
  extend: async () => (await wallet.extend({ topic })).acknowledged(),
  ping: async () => wallet.ping({ topic }),
  delete: async () => wallet.disconnect({ topic, reason: { code: 6000, message: "User disconnected." } }),
  quit: async () => {
    await shut(wallet);
    process.exit(0);
  },
};

out({ event: "ready", clientId: await wallet.core.crypto.getClientId(), address });
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, arg] = line.trim().split(" ");
  try {
    await commands[cmd](arg);
    out({ event: "done", cmd });
  } catch (error) {
    out({ event: "error", cmd, message: error?.message ?? String(error) });
  }
}
