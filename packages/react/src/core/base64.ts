// Base64 of bytes, as Solana RPC's `base64` encoding and the WalletConnect Solana methods carry
// transactions. One copy for every caller (the wallet transfer and the embedded wallet).

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Throws `what` when `text` is not a string. */
export function fromBase64(text: unknown, what: string): Uint8Array {
  if (typeof text !== 'string') throw new Error(what);
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
