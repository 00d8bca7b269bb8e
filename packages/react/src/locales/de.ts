import type { Messages } from './en.js';

export const de: Messages = {
  connectWallet: 'Wallet verbinden',
  connecting: 'Verbinde…',
  close: 'Schließen',
  back: 'Zurück',
  connectTitle: 'Wallet verbinden',
  browserWallets: 'Browser-Wallets',
  noBrowserWallet: 'Keine Browser-Wallet gefunden. Installieren Sie eine und laden Sie die Seite neu.',
  connectionRejected: 'Die Verbindungsanfrage wurde abgelehnt.',
  connectingTitle: 'Verbinden',
  connectingWaiting: 'Fahren Sie in {wallet} fort, um die Verbindung herzustellen.',
  connectionFailed: 'Die Verbindung mit {wallet} ist fehlgeschlagen.',
  retry: 'Erneut versuchen',
  accountTitle: 'Konto',
  balanceLoading: 'Guthaben wird geladen…',
  balanceUnavailable: 'Token-Guthaben nicht verfügbar',
  invalidProjectId: 'Ungültige Projekt-ID',
  invalidAppConfiguration: 'Ungültige App-Konfiguration',
  disconnect: 'Trennen',
  unsupportedChainTitle: 'Netzwerk wechseln',
  unsupportedChainBody: 'Dieses Netzwerk wird nicht unterstützt. Wechseln Sie in Ihrer Wallet zu {network}.',
};
