import { useEffect, useState } from 'react';
import { useLatchInstance } from '../../context.js';
import type { EmbeddedState, EmbeddedWallet } from '../../core/embedded/wallet.js';
import { createStore } from '../../core/store.js';
import { useStore } from '../../hooks/useStore.js';

const idle = createStore<EmbeddedState>({ busy: true, resendAt: 0, approving: false, refused: false });

/** The embedded wallet's login store, loaded on first use; `wallet` is undefined until then. */
export function useEmbeddedWallet(): { wallet?: EmbeddedWallet; state: EmbeddedState } {
  const latch = useLatchInstance();
  const [wallet, setWallet] = useState<EmbeddedWallet | undefined>(() => latch.embeddedWallet?.current());
  useEffect(() => {
    let current = true;
    void latch.embeddedWallet?.load().then((loaded) => {
      if (current) setWallet(loaded);
    });
    return () => {
      current = false;
    };
  }, [latch]);
  const state = useStore(wallet?.store ?? idle);
  return wallet ? { wallet, state } : { state };
}
