// @solana/web3.js@1 and @solana/spl-token, unmodified, against the real local devnet.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createTransferCheckedInstruction,
  getAccount,
  getAssociatedTokenAddressSync,
  getMint,
  getOrCreateAssociatedTokenAccount,
} from '@solana/spl-token';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';

import { rpc, startDevnet } from './helpers.js';

let devnet;
let connection;
let accounts;
let usdc;

before(async () => {
  devnet = await startDevnet();
  connection = new Connection(devnet.rpcUrl, 'confirmed');
  accounts = devnet.fixture.accounts.map((a) => Keypair.fromSecretKey(Uint8Array.from(a.secretKey)));
  usdc = devnet.fixture.usdc;
});

after(async () => {
  // web3.js keeps its subscription socket and reconnects forever once the node is gone; a normal
  // close (code 1000) is the client library's own way to stop that.
  connection?._rpcWebSocket.close();
  await devnet?.stop();
});

async function airdrop(pubkey, lamports) {
  const signature = await connection.requestAirdrop(pubkey, lamports);
  const latest = await connection.getLatestBlockhash();
  const result = await connection.confirmTransaction({ signature, ...latest });
  assert.equal(result.value.err, null);
  return signature;
}

describe('fixture world', () => {
  test('genesis hash and CAIP-2 id are the documented fixed values', async () => {
    const genesis = await connection.getGenesisHash();
    assert.equal(genesis, devnet.fixture.genesisHash);
    assert.equal(devnet.fixture.caipNetworkId, `solana:${genesis.slice(0, 32)}`);
    assert.equal(devnet.fixture.caipNetworkId, 'solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh');
  });

  test('fixture keypairs match their addresses and hold 1000 SOL', async () => {
    for (const [i, kp] of accounts.entries()) {
      assert.equal(kp.publicKey.toBase58(), devnet.fixture.accounts[i].address);
    }
    // #3 is never used by the other tests, so its balance is the fixture's.
    assert.equal(await connection.getBalance(accounts[3].publicKey), 1000 * LAMPORTS_PER_SOL);
  });

  test('the USDC mint and token accounts read back through spl-token', async () => {
    const mint = await getMint(connection, new PublicKey(usdc.mint));
    assert.equal(mint.decimals, 6);
    assert.equal(mint.supply, 1_030_000_000_000n);
    assert.equal(mint.mintAuthority.toBase58(), accounts[0].publicKey.toBase58());
    const ata = getAssociatedTokenAddressSync(new PublicKey(usdc.mint), accounts[3].publicKey);
    assert.equal(ata.toBase58(), usdc.tokenAccounts[3].address);
    const account = await getAccount(connection, ata);
    assert.equal(account.amount, 10_000_000_000n);
    assert.equal(account.owner.toBase58(), accounts[3].publicKey.toBase58());
    const balance = await connection.getTokenAccountBalance(ata);
    assert.deepEqual(balance.value, { amount: '10000000000', decimals: 6, uiAmount: 10000, uiAmountString: '10000' });
  });
});

describe('SOL', () => {
  test('airdrop to a fresh keypair is confirmed and the balance reads back exactly', async () => {
    const fresh = Keypair.generate();
    assert.equal(await connection.getBalance(fresh.publicKey), 0);
    assert.equal(await connection.getAccountInfo(fresh.publicKey), null);
    const signature = await airdrop(fresh.publicKey, 2 * LAMPORTS_PER_SOL + 7);
    assert.equal(await connection.getBalance(fresh.publicKey), 2 * LAMPORTS_PER_SOL + 7);
    const status = await connection.getSignatureStatus(signature);
    assert.equal(status.value.confirmationStatus, 'finalized');
    const info = await connection.getAccountInfo(fresh.publicKey);
    assert.equal(info.owner.toBase58(), SystemProgram.programId.toBase58());
    assert.equal(info.data.length, 0);
  });

  test('a transfer is confirmed; balances move by the amount and the 5000-lamport fee', async () => {
    const [from] = accounts;
    const to = Keypair.generate().publicKey;
    const before = await connection.getBalance(from.publicKey);
    const amount = 123_456_789;
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: amount }));
    const { blockhash } = await connection.getLatestBlockhash();
    tx.recentBlockhash = blockhash;
    tx.feePayer = from.publicKey;
    const fee = await connection.getFeeForMessage(tx.compileMessage());
    assert.equal(fee.value, 5000);
    const signature = await sendAndConfirmTransaction(connection, tx, [from]);
    assert.equal(await connection.getBalance(to), amount);
    assert.equal(await connection.getBalance(from.publicKey), before - amount - 5000);
    const got = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(got.meta.err, null);
    assert.equal(got.meta.fee, 5000);
    assert.deepEqual(got.meta.postBalances.slice(0, 2), [before - amount - 5000, amount]);
    assert.equal(got.transaction.message.staticAccountKeys[1].toBase58(), to.toBase58());
    const history = await connection.getSignaturesForAddress(to);
    assert.deepEqual(history.map((h) => h.signature), [signature]);
  });

  test('a v0 transaction is confirmed and read back', async () => {
    const from = accounts[1];
    const to = Keypair.generate().publicKey;
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: from.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports: 1_000_000 })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(message);
    tx.sign([from]);
    const simulated = await connection.simulateTransaction(tx);
    assert.equal(simulated.value.err, null);
    assert.ok(simulated.value.logs.some((l) => l.includes('11111111111111111111111111111111 success')));
    const signature = await connection.sendTransaction(tx);
    const result = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    assert.equal(result.value.err, null);
    assert.equal(await connection.getBalance(to), 1_000_000);
    const got = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(got.version, 0);
    await assert.rejects(connection.getTransaction(signature), /maxSupportedTransactionVersion/);
  });

  test('an overspend fails preflight with logs; without preflight it lands failed and pays the fee', async () => {
    const poor = Keypair.generate();
    await airdrop(poor.publicKey, 1_000_000);
    const to = Keypair.generate().publicKey;
    const tx = () => new Transaction().add(SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: to, lamports: 5_000_000 }));
    await assert.rejects(sendAndConfirmTransaction(connection, tx(), [poor]), (err) => {
      assert.ok(err instanceof SendTransactionError);
      assert.match(err.message, /custom program error: 0x1/);
      assert.ok(err.logs.some((l) => l.includes('insufficient lamports')));
      return true;
    });
    assert.equal(await connection.getBalance(poor.publicKey), 1_000_000);

    const latest = await connection.getLatestBlockhash();
    const t = tx();
    t.recentBlockhash = latest.blockhash;
    t.feePayer = poor.publicKey;
    t.sign(poor);
    const signature = await connection.sendRawTransaction(t.serialize(), { skipPreflight: true });
    const result = await connection.confirmTransaction({ signature, ...latest });
    assert.deepEqual(result.value.err, { InstructionError: [0, { Custom: 1 }] });
    assert.equal(await connection.getBalance(poor.publicKey), 1_000_000 - 5000);
    assert.equal(await connection.getBalance(to), 0);
  });

  test('a forged signature is refused with -32003', async () => {
    const [from] = accounts;
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }));
    tx.recentBlockhash = (await connection.getLatestBlockhash()).blockhash;
    tx.feePayer = from.publicKey;
    tx.sign(from);
    const wire = tx.serialize();
    wire[10] ^= 0xff; // inside the signature
    const res = await rpc(devnet.rpcUrl, 'sendTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64' }]);
    assert.equal(res.error.code, -32003);
  });

  test('onAccountChange hears a transfer over the WebSocket', async () => {
    const watched = Keypair.generate().publicKey;
    const heard = new Promise((resolve) => {
      const id = connection.onAccountChange(watched, (info, ctx) => {
        connection.removeAccountChangeListener(id);
        resolve({ lamports: info.lamports, slot: ctx.slot });
      });
    });
    // Give the subscription a moment to be acknowledged before the transfer lands.
    await new Promise((r) => setTimeout(r, 200));
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(SystemProgram.transfer({ fromPubkey: accounts[2].publicKey, toPubkey: watched, lamports: 1_000_000 })),
      [accounts[2]],
    );
    const got = await heard;
    assert.equal(got.lamports, 1_000_000);
    assert.ok(got.slot > 0);
  });
});

describe('SPL token', () => {
  test('transferChecked between fixture accounts; balances read back exactly', async () => {
    const mint = new PublicKey(usdc.mint);
    const [sender, receiver] = [accounts[1], accounts[2]];
    const from = getAssociatedTokenAddressSync(mint, sender.publicKey);
    const to = getAssociatedTokenAddressSync(mint, receiver.publicKey);
    const before = [(await getAccount(connection, from)).amount, (await getAccount(connection, to)).amount];
    const amount = 1_234_567n; // 1.234567 USDC
    const tx = new Transaction().add(createTransferCheckedInstruction(from, mint, to, sender.publicKey, amount, 6));
    const signature = await sendAndConfirmTransaction(connection, tx, [sender]);
    assert.equal((await getAccount(connection, from)).amount, before[0] - amount);
    assert.equal((await getAccount(connection, to)).amount, before[1] + amount);
    const balance = await connection.getTokenAccountBalance(from);
    assert.equal(balance.value.amount, (before[0] - amount).toString());
    assert.equal(balance.value.uiAmountString, '9998.765433');
    const got = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    const post = Object.fromEntries(got.meta.postTokenBalances.map((b) => [b.owner, b.uiTokenAmount.amount]));
    assert.equal(post[sender.publicKey.toBase58()], (before[0] - amount).toString());
    assert.equal(post[receiver.publicKey.toBase58()], (before[1] + amount).toString());
  });

  test('a new wallet gets an associated token account, receives USDC, and is listed by owner', async () => {
    const mint = new PublicKey(usdc.mint);
    const wallet = Keypair.generate();
    const payer = accounts[0];
    const ata = await getOrCreateAssociatedTokenAccount(connection, payer, mint, wallet.publicKey);
    assert.equal(ata.amount, 0n);
    const from = getAssociatedTokenAddressSync(mint, payer.publicKey);
    await sendAndConfirmTransaction(
      connection,
      new Transaction().add(createTransferCheckedInstruction(from, mint, ata.address, payer.publicKey, 50_000_000n, 6)),
      [payer],
    );
    const parsed = await connection.getParsedTokenAccountsByOwner(wallet.publicKey, { mint });
    assert.equal(parsed.value.length, 1);
    assert.equal(parsed.value[0].pubkey.toBase58(), ata.address.toBase58());
    assert.deepEqual(parsed.value[0].account.data.parsed.info.tokenAmount, {
      amount: '50000000',
      decimals: 6,
      uiAmount: 50,
      uiAmountString: '50',
    });
    const raw = await connection.getTokenAccountsByOwner(wallet.publicKey, { programId: TOKEN_PROGRAM_ID });
    assert.equal(raw.value.length, 1);
    assert.equal(raw.value[0].account.owner.toBase58(), TOKEN_PROGRAM_ID.toBase58());
    const many = await connection.getMultipleAccountsInfo([ata.address, Keypair.generate().publicKey]);
    assert.equal(many[0].data.length, 165);
    assert.equal(many[1], null);
    assert.ok(ASSOCIATED_TOKEN_PROGRAM_ID);
  });
});

describe('slots and blockhashes', () => {
  test('each landed transaction is one slot; a blockhash expires after 150 slots', async () => {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const slot = await connection.getSlot();
    assert.equal(await connection.getBlockHeight(), slot);
    assert.equal(lastValidBlockHeight, slot + 150);
    assert.equal(await connection.getMinimumBalanceForRentExemption(0), 890880);
    const sink = Keypair.generate().publicKey;
    for (let i = 0; i < 151; i += 1) await connection.requestAirdrop(sink, 1_000_000 + i);
    assert.equal(await connection.getSlot(), slot + 151);
    assert.equal(await connection.isBlockhashValid(blockhash).then((r) => r.value), false);
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: accounts[0].publicKey, toPubkey: sink, lamports: 1 }));
    tx.recentBlockhash = blockhash;
    tx.feePayer = accounts[0].publicKey;
    tx.sign(accounts[0]);
    await assert.rejects(connection.sendRawTransaction(tx.serialize()), /Blockhash not found/);
  });
});
