// Fills a devnet with ERC-20 transfers for `make bench-chain-data`: `count`
// USDC transfers of 1 unit from account #0 to account #7; anvil mines each in
// its own block.
import { readFileSync } from 'node:fs';
import { encodeFunctionData, parseAbi } from 'viem';

const [rpcUrl, fixtureFile, countText = '10000'] = process.argv.slice(2);
const fixture = JSON.parse(readFileSync(fixtureFile, 'utf8'));
const count = Number(countText);
const from = fixture.accounts[0].address;
const to = fixture.accounts[7].address;
const data = encodeFunctionData({
  abi: parseAbi(['function transfer(address to, uint256 amount) returns (bool)']),
  functionName: 'transfer',
  args: [to, 1n],
});
// One request at a time: anvil mines each as it comes (in a JSON-RPC batch it
// may give two requests the same nonce, hence "transaction already imported").
for (let sent = 0; sent < count; sent += 1) {
  const body = { jsonrpc: '2.0', id: sent, method: 'eth_sendTransaction',
    params: [{ from, to: fixture.contracts.usdc.address, data, gas: '0x186a0' }] };
  const answer = await (await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  if (answer.error) throw new Error(`eth_sendTransaction failed: ${JSON.stringify(answer.error)}`);
}
console.log(`${count} transfers to ${to}`);
