import type { StandardWallet, StandardWalletAccount } from '@latch/react';

/** The Latch wallet's icon: an L on the modal's dark background. */
export const LATCH_ICON = `data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzBiMGMwYyIvPjxwYXRoIGQ9Ik0xMSA4djE2aDEwIiBmaWxsPSJub25lIiBzdHJva2U9IiNlNGU3ZTciIHN0cm9rZS13aWR0aD0iMyIgc3Ryb2tlLWxpbmVjYXA9InJvdW5kIiBzdHJva2UtbGluZWpvaW49InJvdW5kIi8+PC9zdmc+` as const;

/** The Solana Wallet Standard features Latch forwards, as wallets implement them. */
export type TransactionVersion = 'legacy' | 0;
export interface SignTransactionFeature {
  supportedTransactionVersions?: readonly TransactionVersion[];
  signTransaction(
    ...inputs: { account: StandardWalletAccount; transaction: Uint8Array; chain?: string }[]
  ): Promise<readonly { signedTransaction: Uint8Array }[]>;
}
export interface SignAndSendTransactionFeature {
  supportedTransactionVersions?: readonly TransactionVersion[];
  signAndSendTransaction(
    ...inputs: {
      account: StandardWalletAccount;
      transaction: Uint8Array;
      chain: string;
      options?: { preflightCommitment?: string; minContextSlot?: number; skipPreflight?: boolean; maxRetries?: number };
    }[]
  ): Promise<readonly { signature: Uint8Array }[]>;
}
export interface SignMessageFeature {
  signMessage(
    ...inputs: { account: StandardWalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>;
}

/** The features forwarded, by name, with the method each must have. */
export const FORWARDED = {
  'solana:signTransaction': 'signTransaction',
  'solana:signAndSendTransaction': 'signAndSendTransaction',
  'solana:signMessage': 'signMessage',
} as const;
export type ForwardedFeature = keyof typeof FORWARDED;

/** A feature object with its method, or undefined when the wallet lacks it (or has it malformed). */
export function walletFeature<T>(wallet: StandardWallet, name: ForwardedFeature): T | undefined {
  const value = wallet.features[name] as Record<string, unknown> | null | undefined;
  return value && typeof value[FORWARDED[name]] === 'function' ? (value as T) : undefined;
}

/** The transaction versions the wallet says it signs (legacy only when it does not say). */
export function transactionVersions(wallet: StandardWallet): readonly TransactionVersion[] {
  for (const name of ['solana:signAndSendTransaction', 'solana:signTransaction'] as const) {
    const versions = walletFeature<SignTransactionFeature>(wallet, name)?.supportedTransactionVersions;
    if (Array.isArray(versions)) return versions.filter((version) => version === 'legacy' || version === 0);
  }
  return ['legacy'];
}
