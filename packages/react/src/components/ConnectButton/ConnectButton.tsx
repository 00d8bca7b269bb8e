import { truncateAddress } from '@latch/wasm';
import type { ReactNode } from 'react';
import type { ConnectionStatus } from '../../core/connection.js';
import type { CaipAddress } from '../../core/types.js';
import { useLatch } from '../../hooks/useLatch.js';
import { useThemeStyle } from '../../hooks/useThemeStyle.js';
import { useLatchInstance } from '../../context.js';

export interface ConnectButtonRenderProps {
  status: ConnectionStatus;
  address?: string;
  /** The address shortened for display, e.g. `0x70...dc79C8`. */
  truncatedAddress?: string;
  caipAddress?: CaipAddress;
  isOpen: boolean;
  /** Opening waits for the wallets' images (at most 2 s, behaviour 1.4), or the modal for the wallet. */
  isLoading: boolean;
  /** Opens Account when connected, else Connect. */
  open(): void;
}

export interface ConnectButtonCustomProps {
  children(props: ConnectButtonRenderProps): ReactNode;
}

/** The headless variant: Latch supplies the state, the host renders its own button. */
function ConnectButtonCustom({ children }: ConnectButtonCustomProps) {
  const { status, address, caipAddress, isOpen, isLoading, open } = useLatch();
  return children({
    status,
    address,
    truncatedAddress: address ? truncateAddress(address) : undefined,
    caipAddress,
    isOpen,
    isLoading,
    open: () => open(),
  });
}

export function ConnectButton() {
  const { t, locale } = useLatchInstance();
  const themeStyle = useThemeStyle();
  return (
    <ConnectButtonCustom>
      {({ status, truncatedAddress, isLoading, open }) => (
        <button
          type="button"
          className="latch-connect-button"
          data-testid="connect-button"
          data-status={status}
          lang={locale.getState().locale}
          aria-busy={isLoading}
          style={themeStyle}
          onClick={open}
        >
          {truncatedAddress ?? t(status === 'connecting' ? 'connecting' : 'connectWallet')}
        </button>
      )}
    </ConnectButtonCustom>
  );
}

ConnectButton.Custom = ConnectButtonCustom;
