import type { Latch } from '../../core/createLatch.js';
import { createSend, type SendController, type SendSolana } from '../../core/send.js';
import {
  SolanaSendError,
  SolanaSendRejectedError,
  sendSolanaTransfer,
  type SolanaSendToken,
} from '../../core/solanaTransfer.js';
import { WalletRequestError } from '../../core/transactions.js';
import { solanaWalletOf, type CaipNetworkId } from '../../core/types.js';
import { perLatch } from '../lazyView.js';

/** The send store of `latch`; a Solana account's send goes through the Wallet Standard. */
export const sendControllerFor = perLatch((latch): SendController => {
  const controller = createSend({
    account: latch.account,
    accountData: latch.accountData,
    networks: latch.networks,
    gateway: latch.gateway,
    transactions: latch.transactions,
    toasts: latch.toasts,
    modal: latch.modal,
    transactionStack: latch.transactionStack,
  });
  controller.sendSolana = solanaSender(latch);
  return controller;
});

/** A Solana draft sent with the connected Wallet Standard wallet, then the balances read again. */
function solanaSender(latch: Latch): SendSolana {
  return async ({ token, amount, receiverAddress }) => {
    const { connectors, activeConnectorId } = latch.connection.getState();
    const connector = connectors.find(({ id }) => id === activeConnectorId);
    const { address, caipNetworkId } = latch.account.getState();
    const network = latch.networks.find((candidate) => candidate.caipNetworkId === caipNetworkId);
    const wallet = connector && network?.chainNamespace === 'solana' ? solanaWalletOf(connector) : undefined;
    if (!wallet || !address || !network) throw new WalletRequestError('notConnected');
    // A token balance names an SPL token by its CAIP-10 mint; the native SOL has no address.
    const mint = token.address?.split(':')[2];
    const solanaToken: SolanaSendToken = mint
      ? { type: 'spl', mint, decimals: Number(token.quantity.decimals), tokenProgram: await ownerOf(latch, caipNetworkId!, mint) }
      : { type: 'native' };
    let signature: string;
    try {
      signature = await sendSolanaTransfer({ connector: { wallet }, address, network, gateway: latch.gateway, token: solanaToken, amount, receiver: receiverAddress });
    } catch (error) {
      // Behaviour 5.6: a declined send is the user's choice; any other failure has Solana's own message.
      if (error instanceof SolanaSendRejectedError) throw new WalletRequestError('rejected', error);
      if (error instanceof SolanaSendError) throw new WalletRequestError('failed', error);
      throw error;
    }
    void latch.refreshBalance();
    void latch.accountData.refreshTokens(true);
    return signature;
  };
}

/** The program that owns `mint` (Token or Token-2022), read through the gateway. */
async function ownerOf(latch: Latch, caipNetworkId: CaipNetworkId, mint: string): Promise<string | undefined> {
  const info = (await latch.gateway.request(caipNetworkId, 'getAccountInfo', [mint, { encoding: 'base64' }])) as {
    value?: { owner?: string } | null;
  } | null;
  return info?.value?.owner ?? undefined;
}
