// The official Apache-2.0 wallet client (@walletconnect/sign-client 2.21.8, as
// pinned by relay-conformance) driven line by line from stdin, for the Rust
// interop test (tests/interop.rs). Usage: node wallet.mjs <relayUrl>
// Prints one JSON object per line for everything that happens. It approves
// every proposal with an eip155 namespace and answers personal_sign with a
// fixed signature, anything else with "5000 User rejected.".
import { createInterface } from "node:readline";

import { ACCOUNT, client, shut } from "../../../relay-conformance/lib/harness.mjs";

export const SIGNATURE = "0x" + "ab".repeat(65);
const relayUrl = process.argv[2];
const out = (object) => process.stdout.write(JSON.stringify(object) + "\n");
const address = ACCOUNT.split(":")[2];
const namespaces = (chains) => ({
  eip155: {
    chains,
    accounts: chains.map((chain) => `${chain}:${address}`),
    methods: ["personal_sign", "eth_sendTransaction"],
    events: ["accountsChanged", "chainChanged"],
  },
});

const wallet = await client("wallet", relayUrl);
let topic;

wallet.on("session_proposal", async ({ id, params }) => {
  out({ event: "proposal", id, requiredNamespaces: params.requiredNamespaces, proposer: params.proposer.metadata });
  try {
    const approved = await wallet.approve({ id, namespaces: namespaces(["eip155:1"]) });
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
  const response =
    method === "personal_sign" ? { result: SIGNATURE } : { error: { code: 5000, message: "User rejected." } };
  await wallet.respond({ topic, response: { id, jsonrpc: "2.0", ...response } });
});
wallet.on("session_delete", ({ topic }) => out({ event: "deleted", topic }));
wallet.on("session_ping", ({ topic }) => out({ event: "pinged", topic }));

const commands = {
  pair: async (uri) => wallet.pair({ uri }),
  accounts: async () =>
    wallet.emit({ topic, chainId: "eip155:1", event: { name: "accountsChanged", data: [ACCOUNT] } }),
  chain: async () => wallet.emit({ topic, chainId: "eip155:1", event: { name: "chainChanged", data: 1 } }),
  update: async () => (await wallet.update({ topic, namespaces: namespaces(["eip155:1", "eip155:137"]) })).acknowledged(),
  extend: async () => (await wallet.extend({ topic })).acknowledged(),
  ping: async () => wallet.ping({ topic }),
  delete: async () => wallet.disconnect({ topic, reason: { code: 6000, message: "User disconnected." } }),
  quit: async () => {
    await shut(wallet);
    process.exit(0);
  },
};

out({ event: "ready", clientId: await wallet.core.crypto.getClientId() });
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, arg] = line.trim().split(" ");
  try {
    await commands[cmd](arg);
    out({ event: "done", cmd });
  } catch (error) {
    out({ event: "error", cmd, message: error?.message ?? String(error) });
  }
}
