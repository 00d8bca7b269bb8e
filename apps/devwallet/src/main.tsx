import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { walletConfig } from './lib';
import { DevWallet } from './wallet';

const wallet = new DevWallet(walletConfig(window.location));
void wallet.start();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App wallet={wallet} />
  </StrictMode>,
);
