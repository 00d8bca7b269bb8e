// The standard's app side, in a chunk of its own (loaded by watchStandardWallets): hosts without a
// Solana network never fetch it.
export { getWallets } from '@wallet-standard/app';
