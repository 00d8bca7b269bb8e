import { parseCaipNetworkId } from '@latch/wasm';
import { useEffect, useState } from 'react';
import { Button } from '../../components/Button/Button.js';
import { useLatchInstance } from '../../context.js';
import type { CaipNetworkId } from '../../core/types.js';
import { loadWasmExtra } from '../../core/wasmExtra.js';
import { views } from '../index.js';

/**
 * "Register a name" (behaviour 5.12 "Name registration") for an account without a name, on a namespace
 * latch-core says has names (behaviour 3.10). The rule is in `@latch/wasm/extra`, loaded when the browser is
 * idle, so the button shows once it is in.
 */
export function RegisterNameAction({ caipNetworkId }: { caipNetworkId: CaipNetworkId }) {
  const latch = useLatchInstance();
  const [supported, setSupported] = useState(false);
  useEffect(() => {
    let live = true;
    const { namespace } = parseCaipNetworkId(caipNetworkId);
    loadWasmExtra().then(
      ({ supportsFeature }) => live && setSupported(supportsFeature('names', namespace)),
      () => live && setSupported(false),
    );
    return () => {
      live = false;
    };
  }, [caipNetworkId]);
  if (!supported) return null;
  const entry = views.RegisterAccountName;
  const preload = () => void entry.preload?.().catch(() => undefined);
  return (
    <Button
      data-testid="account-register-name"
      onPointerEnter={preload}
      onFocus={preload}
      // The view opens once its chunk is in, so it shows at once instead of a loading state.
      onClick={() => {
        const open = () => latch.modal.push('RegisterAccountName');
        const loading = entry.preload?.();
        if (loading) void loading.then(open, open);
        else open();
      }}
    >
      {latch.t('accountRegisterName')}
    </Button>
  );
}
