import { useState, useSyncExternalStore, type FormEvent } from 'react';
import type { PendingRequestTypes, ProposalTypes, SessionTypes } from '@walletconnect/types';
import {
  CHAINS,
  chainByCaip,
  decodeMessage,
  formatValue,
  personalSignParams,
  requested,
  sessionAddress,
  switchChainParams,
  transactionParams,
  typedDataParams,
  unsupported,
} from './lib';
import type { DevWallet } from './wallet';

export function App({ wallet }: { wallet: DevWallet }) {
  const state = useSyncExternalStore(wallet.subscribe, wallet.getState);
  const ready = state.status === 'ready';
  return (
    <main>
      <header>
        <h1>Latch dev wallet</h1>
        <p className="warning" role="note">
          Development only. This wallet uses anvil's <strong>public test keys</strong>: anyone can spend from these
          accounts. Never send real assets to them.
        </p>
      </header>
      <p role="status" aria-label="Wallet status" className="notice">
        {state.status === 'starting' ? `Connecting to the relay at ${wallet.config.relayUrl}…` : state.notice}
      </p>
      {state.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      <AccountSection wallet={wallet} accountIndex={state.accountIndex} chain={state.chain} ready={ready} />
      <PairSection wallet={wallet} ready={ready} />
      {state.proposals.length > 0 && (
        <section aria-labelledby="proposals-heading">
          <h2 id="proposals-heading">Connection requests</h2>
          {state.proposals.map((proposal) => (
            <ProposalCard key={proposal.id} wallet={wallet} proposal={proposal} />
          ))}
        </section>
      )}
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading">Requests</h2>
        {state.requests.length === 0 ? (
          <p className="muted">No requests waiting.</p>
        ) : (
          state.requests.map((request) => (
            <RequestCard
              key={request.id}
              wallet={wallet}
              request={request}
              session={state.sessions.find((s) => s.topic === request.topic)}
            />
          ))
        )}
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        {state.sessions.length === 0 ? (
          <p className="muted">No active sessions.</p>
        ) : (
          <ul className="sessions" aria-label="Active sessions">
            {state.sessions.map((session) => (
              <SessionItem key={session.topic} wallet={wallet} session={session} />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

function AccountSection({
  wallet,
  accountIndex,
  chain,
  ready,
}: {
  wallet: DevWallet;
  accountIndex: number;
  chain: string;
  ready: boolean;
}) {
  const [target, setTarget] = useState(chain);
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account and chain</h2>
      <div className="row">
        <label htmlFor="account">Account</label>
        <select id="account" value={accountIndex} onChange={(e) => wallet.selectAccount(Number(e.target.value))}>
          {wallet.accounts.map((account, index) => (
            <option key={account.address} value={index}>
              {index}: {account.address}
            </option>
          ))}
        </select>
      </div>
      <p className="muted">New sessions share this account. Requests are signed by the account they name.</p>
      <div className="row">
        <span>Active chain</span>
        <output aria-label="Active chain">
          {chainByCaip(chain)?.name} ({chain})
        </output>
      </div>
      <form
        className="row"
        onSubmit={(event) => {
          event.preventDefault();
          void wallet.switchChain(target);
        }}
      >
        <label htmlFor="chain">Switch to</label>
        <select id="chain" value={target} onChange={(e) => setTarget(e.target.value)}>
          {CHAINS.map((c) => (
            <option key={c.caip} value={c.caip}>
              {c.name} ({c.caip})
            </option>
          ))}
        </select>
        <button type="submit" disabled={!ready}>
          Switch chain
        </button>
      </form>
    </section>
  );
}

function PairSection({ wallet, ready }: { wallet: DevWallet; ready: boolean }) {
  const [uri, setUri] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void wallet.pair(uri).then(() => setUri(''));
  };
  return (
    <section aria-labelledby="pair-heading">
      <h2 id="pair-heading">Pair with a dapp</h2>
      <form className="row" onSubmit={submit}>
        <label htmlFor="uri">WalletConnect URI</label>
        <input
          id="uri"
          value={uri}
          onChange={(e) => setUri(e.target.value)}
          placeholder="wc:…"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" disabled={!ready || !uri.trim()}>
          Pair
        </button>
      </form>
    </section>
  );
}

function Dapp({ metadata }: { metadata: { name: string; url: string; icons: string[] } }) {
  return (
    <div className="dapp">
      {metadata.icons[0] && <img src={metadata.icons[0]} alt="" width={32} height={32} />}
      <div>
        <strong>{metadata.name || 'Unnamed dapp'}</strong>
        <div className="muted">{metadata.url}</div>
      </div>
    </div>
  );
}

function List({ label, items }: { label: string; items: string[] }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{items.length ? items.join(', ') : '—'}</dd>
    </>
  );
}

function ProposalCard({ wallet, proposal }: { wallet: DevWallet; proposal: ProposalTypes.Struct }) {
  const { required, optional } = requested(proposal);
  const missing = unsupported(required);
  const name = proposal.proposer.metadata.name || 'Unnamed dapp';
  return (
    <article className="card" aria-label={`Connection request from ${name}`}>
      <Dapp metadata={proposal.proposer.metadata} />
      <dl>
        <List label="Required chains" items={required.chains} />
        <List label="Optional chains" items={optional.chains} />
        <List label="Methods" items={[...required.methods, ...optional.methods.filter((m) => !required.methods.includes(m))]} />
        <List label="Events" items={[...required.events, ...optional.events.filter((e) => !required.events.includes(e))]} />
        <dt>Shares</dt>
        <dd>
          account {wallet.account.address} on {CHAINS.map((c) => c.caip).join(', ')}
        </dd>
      </dl>
      {missing.length > 0 && <p className="error">This wallet cannot give what the dapp requires: {missing.join(', ')}</p>}
      <div className="actions">
        <button type="button" onClick={() => void wallet.approveProposal(proposal.id)}>
          Approve
        </button>
        <button type="button" className="secondary" onClick={() => void wallet.rejectProposal(proposal.id)}>
          Reject
        </button>
      </div>
    </article>
  );
}

/** What the request asks, in a person's terms; a malformed request says what is wrong with it. */
function RequestDetails({ request }: { request: PendingRequestTypes.Struct }) {
  const { method, params } = request.params.request;
  try {
    switch (method) {
      case 'personal_sign': {
        const { message, address } = personalSignParams(params);
        const decoded = decodeMessage(message);
        return (
          <dl>
            <dt>Account</dt>
            <dd>{address}</dd>
            <dt>Message</dt>
            <dd>
              <textarea aria-label="Message" readOnly rows={Math.min(8, Math.max(2, decoded.text.split('\n').length))} value={decoded.text} />
            </dd>
          </dl>
        );
      }
      case 'eth_sendTransaction': {
        const tx = transactionParams(params);
        return (
          <dl>
            <dt>From</dt>
            <dd>{tx.from ?? '—'}</dd>
            <dt>To</dt>
            <dd>{tx.to ?? 'a new contract'}</dd>
            <dt>Value</dt>
            <dd>{formatValue(tx.value)}</dd>
            <dt>Data</dt>
            <dd className="data">{tx.data ?? '—'}</dd>
          </dl>
        );
      }
      case 'eth_signTypedData_v4': {
        const { address, typedData } = typedDataParams(params);
        return (
          <dl>
            <dt>Account</dt>
            <dd>{address}</dd>
            <dt>Typed data</dt>
            <dd>
              <pre>{JSON.stringify(typedData, null, 2)}</pre>
            </dd>
          </dl>
        );
      }
      case 'wallet_switchEthereumChain': {
        const chain = switchChainParams(params);
        return (
          <dl>
            <dt>Chain</dt>
            <dd>
              {chainByCaip(chain)?.name ?? 'unknown to this wallet'} ({chain})
            </dd>
          </dl>
        );
      }
      default:
        return <pre>{JSON.stringify(params, null, 2)}</pre>;
    }
  } catch (error) {
    return <p className="error">{error instanceof Error ? error.message : String(error)}</p>;
  }
}

function RequestCard({
  wallet,
  request,
  session,
}: {
  wallet: DevWallet;
  request: PendingRequestTypes.Struct;
  session: SessionTypes.Struct | undefined;
}) {
  const { method } = request.params.request;
  const name = session?.peer.metadata.name || 'a dapp';
  return (
    <article className="card" aria-label={`${method} request from ${name}`}>
      <h3>
        {method} <span className="muted">on {request.params.chainId}</span>
      </h3>
      <p className="muted">from {name}</p>
      <RequestDetails request={request} />
      <div className="actions">
        <button type="button" onClick={() => void wallet.approveRequest(request)}>
          Approve
        </button>
        <button type="button" className="secondary" onClick={() => void wallet.rejectRequest(request)}>
          Reject
        </button>
      </div>
    </article>
  );
}

function SessionItem({ wallet, session }: { wallet: DevWallet; session: SessionTypes.Struct }) {
  const name = session.peer.metadata.name || 'Unnamed dapp';
  return (
    <li className="card" aria-label={`Session with ${name}`}>
      <Dapp metadata={session.peer.metadata} />
      <dl>
        <dt>Account</dt>
        <dd>{sessionAddress(session) ?? '—'}</dd>
        <dt>Chains</dt>
        <dd>{(session.namespaces.eip155?.chains ?? []).join(', ')}</dd>
        <dt>Expires</dt>
        <dd>{new Date(session.expiry * 1000).toLocaleString()}</dd>
      </dl>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void wallet.disconnect(session.topic)}>
          Disconnect
        </button>
      </div>
    </li>
  );
}
