import { parseCaipNetworkId } from '@latch/wasm';
import type { MessageKey } from '../locales/index.js';
import type { AccountDataController } from './accountData.js';
import type { NameSuggestion } from './api.js';
import type { AccountState } from './connection.js';
import type { ModalController } from './modal.js';
import { createStore, type Store } from './store.js';
import { DEBOUNCE_MS } from './timings.js';
import { loadWasmExtra } from './wasmExtra.js';

/** A message of the catalogue with the values it names. */
export interface RegisterNameMessage {
  key: MessageKey;
  values?: Record<string, string>;
}

/** What RegisterAccountName shows (behaviour 1.1, 5.12 "Name registration"). */
export interface RegisterNameState {
  /** The label as typed. */
  input: string;
  /** latch-core's rule (behaviour 5.11) broken by the input, as the catalogue's key. */
  invalid?: MessageKey;
  /** True from a valid input until its suggestions are in. */
  checking: boolean;
  /** The wanted full name first (taken or not), then free variants. */
  suggestions: readonly NameSuggestion[];
  /** The full name the form would register: the first suggestion, when free. */
  available?: string;
  /** The wanted full name is someone else's. */
  taken?: string;
  /** True while the wallet signs and the server registers. */
  submitting: boolean;
  /** Behaviour 5.12's name errors, shown in `register-name-error`. */
  error?: RegisterNameMessage;
  /** The name just registered, for RegisterAccountNameSuccess. */
  registered?: string;
  /** The names the account already holds (read when the view opens). */
  owned: readonly string[];
}

export interface RegisterNameController {
  store: Store<RegisterNameState>;
  /** Checks the rule at once and asks for suggestions after the debounce (500 ms, behaviour 7.4). */
  setInput(input: string): void;
  /** Registers the available name: sign, register, set the profile name, success view. */
  submit(): Promise<void>;
  reset(): void;
  /** Reads the names the account already holds (`/v1/profile/reverse`). */
  loadOwned(): Promise<void>;
}

/** Behaviour 7.4's default debounce, for the suggestion lookups. */
export const SUGGESTION_DEBOUNCE_MS: number = DEBOUNCE_MS;

/** latch-core's name-rule messages (behaviour 5.11) and the catalogue keys that translate them. */
const RULE_MESSAGES: Record<string, MessageKey> = {
  'Name must be at least 4 characters': 'nameTooShort',
  'Name can only contain letters, digits and hyphens': 'nameInvalidCharacters',
  'Name must be at most 63 characters': 'nameTooLong',
  'Name cannot start or end with a hyphen': 'nameHyphenEnds',
};

const EMPTY: RegisterNameState = {
  input: '',
  invalid: undefined,
  checking: false,
  suggestions: [],
  available: undefined,
  taken: undefined,
  submitting: false,
  error: undefined,
  registered: undefined,
  owned: [],
};

export function createRegisterName({
  account,
  accountData,
  modal,
  signMessage,
  now = () => Date.now(),
  debounceMs = SUGGESTION_DEBOUNCE_MS,
}: {
  account: Store<AccountState>;
  accountData: AccountDataController;
  modal: ModalController;
  /** The host signing path (`latch.signMessage`): EIP-191 from the connected wallet. */
  signMessage: (message: string) => Promise<string>;
  now?: () => number;
  debounceMs?: number;
}): RegisterNameController {
  const store = createStore<RegisterNameState>(EMPTY);
  // Which input the answers are for: a later keystroke makes earlier ones stale.
  let request = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  // Another account or network: the draft was for the previous one.
  let last = `${account.getState().caipAddress}`;
  account.subscribe(() => {
    const current = `${account.getState().caipAddress}`;
    if (current !== last) reset();
    last = current;
  });

  function reset() {
    request++;
    clearTimeout(timer);
    store.setState(EMPTY);
  }

  async function suggest(label: string, expected: number) {
    try {
      const suggestions = await accountData.api.nameSuggestions(label);
      if (expected !== request) return;
      const wanted = suggestions[0];
      store.setState({
        checking: false,
        suggestions,
        available: wanted && !wanted.registered ? wanted.name : undefined,
        taken: wanted?.registered ? wanted.name : undefined,
      });
    } catch {
      if (expected !== request) return;
      store.setState({ checking: false, error: { key: 'nameSuggestionsFailed' } });
    }
  }

  function setInput(input: string) {
    const expected = ++request;
    clearTimeout(timer);
    store.setState({ ...EMPTY, owned: store.getState().owned, input, checking: input.trim() !== '' });
    const label = input.trim();
    if (!label) return;
    void loadWasmExtra().then(
      ({ validateName }) => {
        if (expected !== request) return;
        let valid: string;
        try {
          valid = validateName(label);
        } catch (error) {
          const message = (error as Error | undefined)?.message ?? '';
          store.setState({ checking: false, invalid: RULE_MESSAGES[message] ?? 'nameInvalidCharacters' });
          return;
        }
        timer = setTimeout(() => void suggest(valid, expected), debounceMs);
      },
      () => {
        if (expected === request) store.setState({ checking: false, error: { key: 'nameSuggestionsFailed' } });
      },
    );
  }

  async function submit() {
    const { available, submitting } = store.getState();
    const { address, caipNetworkId } = account.getState();
    if (!available || submitting || !address || !caipNetworkId) return;
    const expected = request;
    store.setState({ submitting: true, error: undefined });
    try {
      const { evmChainIdToCoinType } = await loadWasmExtra();
      const coinType = evmChainIdToCoinType(Number(parseCaipNetworkId(caipNetworkId).reference));
      // The server takes the timestamp within ±10 s of its clock, so it is taken just before signing.
      const message = JSON.stringify({ name: available, attributes: {}, timestamp: Math.floor(now() / 1000) });
      const signature = await signMessage(message);
      const profile = await accountData.api.registerName({ coin_type: coinType, address, message, signature });
      if (expected !== request) return;
      // Behaviour 5.12: the profile name is set at once; the server's identity answers it from now on.
      accountData.identity.setState({ name: profile.name });
      store.setState({ submitting: false, registered: profile.name });
      modal.replace('RegisterAccountNameSuccess');
    } catch {
      if (expected !== request) return;
      // Behaviour 5.12: a failure returns to RegisterAccountName with behaviour 5.12's message.
      store.setState({ submitting: false, error: { key: 'nameRegisterFailed', values: { name: available } } });
    }
  }

  async function loadOwned() {
    const { address } = account.getState();
    if (!address) return;
    try {
      const names = await accountData.api.names(address);
      if (account.getState().address === address) store.setState({ owned: names.map(({ name }) => name) });
    } catch {
      if (account.getState().address === address) store.setState({ error: { key: 'nameFetchFailed' } });
    }
  }

  return { store, setInput, submit, reset, loadOwned };
}
