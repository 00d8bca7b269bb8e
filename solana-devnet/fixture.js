// The fixture world: funded keypairs and a USD stablecoin mint with a token account for each.
// Everything derives from fixed seeds, so addresses are the same on every start.
import { getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';

import { CAIP2, FAUCET, GENESIS_HASH, TOKEN_PROGRAM } from './chain.js';
import { keypairFromSeed, sha256 } from './encoding.js';

export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const ACCOUNT_COUNT = 4;
export const ACCOUNT_LAMPORTS = 1_000_000_000_000n; // 1000 SOL
export const USDC = { symbol: 'USDC', name: 'USD Coin', decimals: 6 };
/** #0 holds 1,000,000 USDC, the others 10,000 each (as on the EVM devnet). */
export const USDC_AMOUNTS = [1_000_000_000_000n, 10_000_000_000n, 10_000_000_000n, 10_000_000_000n];

const addressEncoder = getAddressEncoder();

export const fixtureKeypair = (i) => keypairFromSeed(sha256(`latch solana devnet account ${i}`));
export const mintKeypair = () => keypairFromSeed(sha256('latch solana devnet usdc mint'));

export async function associatedTokenAddress(owner, mint, tokenProgram = TOKEN_PROGRAM) {
  const [address] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM,
    seeds: [addressEncoder.encode(owner), addressEncoder.encode(tokenProgram), addressEncoder.encode(mint)],
  });
  return address;
}

function mintData({ mintAuthority, supply, decimals }) {
  const data = Buffer.alloc(82);
  data.writeUInt32LE(1, 0);
  Buffer.from(addressEncoder.encode(mintAuthority)).copy(data, 4);
  data.writeBigUInt64LE(supply, 36);
  data[44] = decimals;
  data[45] = 1; // initialised; no freeze authority
  return new Uint8Array(data);
}

function tokenAccountData({ mint, owner, amount }) {
  const data = Buffer.alloc(165);
  Buffer.from(addressEncoder.encode(mint)).copy(data, 0);
  Buffer.from(addressEncoder.encode(owner)).copy(data, 32);
  data.writeBigUInt64LE(amount, 64);
  data[108] = 1; // AccountState::Initialized
  return new Uint8Array(data);
}

/** Writes the fixture accounts into a fresh chain and returns the JSON the tests read (secret keys included). */
export async function installFixture(chain) {
  const keypairs = Array.from({ length: ACCOUNT_COUNT }, (_, i) => fixtureKeypair(i));
  const mint = mintKeypair().address;
  for (const kp of keypairs) chain.setAccount(kp.address, { lamports: ACCOUNT_LAMPORTS });
  const supply = USDC_AMOUNTS.reduce((a, b) => a + b, 0n);
  chain.setAccount(mint, {
    lamports: chain.rentExemptMinimum(82),
    owner: TOKEN_PROGRAM,
    data: mintData({ mintAuthority: keypairs[0].address, supply, decimals: USDC.decimals }),
  });
  const tokenAccounts = [];
  for (const [i, kp] of keypairs.entries()) {
    const address = await associatedTokenAddress(kp.address, mint);
    chain.setAccount(address, {
      lamports: chain.rentExemptMinimum(165),
      owner: TOKEN_PROGRAM,
      data: tokenAccountData({ mint, owner: kp.address, amount: USDC_AMOUNTS[i] }),
    });
    tokenAccounts.push({ owner: kp.address, address, amount: USDC_AMOUNTS[i].toString() });
  }
  return {
    genesisHash: GENESIS_HASH,
    caipNetworkId: CAIP2,
    faucet: FAUCET.address,
    accounts: keypairs.map((kp) => ({
      address: kp.address,
      secretKey: Array.from(kp.secretKey),
      lamports: ACCOUNT_LAMPORTS.toString(),
    })),
    usdc: {
      mint,
      ...USDC,
      supply: supply.toString(),
      mintAuthority: keypairs[0].address,
      tokenProgram: TOKEN_PROGRAM,
      tokenAccounts,
    },
  };
}
