import { Fragment, useCallback, useEffect, useState, type FormEvent } from 'react';
import type { ConfirmApi, ConfirmState, ConfirmTicket } from '../../shared/confirm.ts';
import { aRole, DEFAULT_ROLE, ROLE_WORDS, ROLES, type Role } from '../../shared/api/roles.ts';
import { ReplaySummary } from '../src/components/ReplaySummary.tsx';
import { BatchWhat } from './BatchWhat.tsx';
import { MakeOwnKey } from './MakeOwnKey.tsx';
import { Recovery } from './Recovery.tsx';

// The only page where operators type their passphrases and sign. Each ticket shows what will be
// signed exactly as the core holds it (the main window's page only asked for it; it cannot change it).

interface RequestPayload {
  kind: string;
  body: Record<string, string | number>;
  /** The sub-account whose key signs the request (absent: the profile's main key). */
  signer?: string;
  note?: string;
  verdict: {
    decision: string;
    rule: string | null;
    approvals: number;
    drafter_may_approve: boolean;
    rules: { rule: string; matched: boolean; why: string[] }[];
  };
}

function What({ t }: { t: ConfirmTicket }) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(t.payload);
  } catch {
    parsed = null;
  }
  if (t.what === 'request' && parsed && typeof parsed === 'object' && 'body' in parsed) {
    const r = parsed as RequestPayload;
    return (
      <>
        <dl data-testid="signed-body">
          <dt>Kind</dt>
          <dd>{r.kind}</dd>
          {Object.entries(r.body).map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </Fragment>
          ))}
          {r.signer && (
            <>
              <dt>Signed by</dt>
              <dd>sub-account {r.signer}'s own key</dd>
            </>
          )}
          {t.profile && (
            <>
              <dt>Profile</dt>
              <dd>{t.profile}</dd>
            </>
          )}
        </dl>
        <p className="small">
          Policy: <strong>{r.verdict.decision}</strong> by rule {r.verdict.rule ?? '(none)'}
          {r.verdict.decision === 'require' && (
            <>
              {' '}
              — {r.verdict.approvals} approval(s){r.verdict.drafter_may_approve ? ', the drafter may be one' : ', none by the drafter'}
            </>
          )}
        </p>
      </>
    );
  }
  if (t.what === 'batch') return <BatchWhat t={t} />;
  return (
    <>
      <pre data-testid="signed-body">{JSON.stringify(parsed, null, 2)}</pre>
      {t.replay && <ReplaySummary replay={t.replay} />}
    </>
  );
}

/** The passphrase steps are slow (scrypt, then a signature): a person sees, and a screen reader hears, that work is under way. */
function Busy({ busy, words }: { busy: boolean; words: string }) {
  return (
    <p className="muted small" role="status" aria-live="polite">
      {busy ? words : ''}
    </p>
  );
}

function TicketCard({
  t,
  state,
  desk,
  onDone,
}: {
  t: ConfirmTicket;
  state: ConfirmState;
  desk: ConfirmApi;
  onDone: (msg: string) => void;
}) {
  const [operator, setOperator] = useState(state.operators[0]?.id ?? '');
  const [passphrase, setPassphrase] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await desk.confirmSign({ ticket: t.id, operator, passphrase });
      setPassphrase('');
      if (r.ok) onDone(`Signed: ${r.data.title}.`);
      else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card ticket" data-testid="ticket" aria-label={t.title}>
      <h2>{t.title}</h2>
      <p className="muted small">
        Reference {t.ref}
        {t.reason ? ` — reason: ${t.reason}` : ''}
      </p>
      <What t={t} />
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy} aria-label={`Sign ${t.title}`}>
        {/* Checking a passphrase (scrypt) and signing take seconds: nothing can be pressed twice meanwhile. */}
        <fieldset className="plain" disabled={busy}>
          <label>
            Operator
            <select value={operator} onChange={(e) => setOperator(e.target.value)} aria-label="Operator">
              {state.operators.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Passphrase
            <input
              type="password"
              autoComplete="off"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
              aria-label="Passphrase"
            />
          </label>
          <Busy busy={busy} words="Signing… checking the passphrase and making the signature." />
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button className="primary" type="submit" disabled={busy || !operator || !passphrase}>
              {busy ? 'Signing…' : 'Sign'}
            </button>
            <button
              type="button"
              onClick={() => void desk.confirmDecline({ ticket: t.id }).then(() => onDone('Declined; nothing was signed.'))}
            >
              Decline
            </button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}

function FirstOperator({ credential, desk, onDone }: { credential: 'vault' | 'none'; desk: ConfirmApi; onDone: (msg: string) => void }) {
  const [name, setName] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const [vault, setVault] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await desk.confirmCreateFirstOperator({ name, passphrase, ...(credential === 'vault' ? { vault_passphrase: vault } : {}) });
      if (r.ok) onDone(`Operator ${name} created.`);
      else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-label="First operator">
      <h2>Create the first operator</h2>
      <p className="muted small">
        {credential === 'vault'
          ? "The desk's own passphrase is needed, so that nothing but the person who holds it can become the first operator."
          : "This desk holds only the Sandbox's play money, so no vault credential is asked."}
      </p>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <fieldset className="plain" disabled={busy}>
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value)} aria-label="Operator name" />
          </label>
          <label>
            Operator passphrase (at least 10 characters)
            <input
              type="password"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
              aria-label="New operator passphrase"
            />
          </label>
          {credential === 'vault' && (
            <label>
              Desk passphrase
              <input type="password" value={vault} onChange={(e) => setVault(e.target.value)} aria-label="Desk passphrase" />
            </label>
          )}
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <Busy busy={busy} words="Creating the operator… sealing their key with the passphrase." />
          <button className="primary" type="submit">
            {busy ? 'Creating…' : 'Create operator'}
          </button>
        </fieldset>
      </form>
    </section>
  );
}

function ProposeOperator({ state, desk, onDone }: { state: ConfirmState; desk: ConfirmApi; onDone: (msg: string) => void }) {
  const [name, setName] = useState('');
  const [newPass, setNewPass] = useState('');
  const [code, setCode] = useState('');
  const [heard, setHeard] = useState('');
  const [by, setBy] = useState(state.operators[0]?.id ?? '');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [pass, setPass] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // A code means their key was made at their own desk: no passphrase of theirs is typed here.
      const key = code.trim() ? { enrolment: code.trim(), enrolment_fingerprint: heard } : { new_passphrase: newPass };
      const r = await desk.confirmProposeOperator({ name, ...key, by, passphrase: pass, role });
      if (r.ok) {
        setName('');
        setNewPass('');
        setCode('');
        setHeard('');
        setPass('');
        onDone(
          `Operator ${name} proposed; they can sign once the quorum approves and the cooling-off has passed (see the Approvals page).`,
        );
      } else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="card" aria-label="Propose an operator">
      <summary>Propose a new operator</summary>
      <form className="form" onSubmit={(e) => void submit(e)} aria-busy={busy}>
        <fieldset className="plain" disabled={busy}>
          <label>
            New operator's name
            <input value={name} onChange={(e) => setName(e.target.value)} aria-label="New operator name" />
          </label>
          <label>
            Enrolment code from their desk (their key stays there)
            <input value={code} onChange={(e) => setCode(e.target.value)} aria-label="Enrolment code" />
          </label>
          {code.trim() && (
            <label>
              Their key&apos;s fingerprint, as they read it to you from their desk (not from the code&apos;s message)
              <input
                value={heard}
                onChange={(e) => setHeard(e.target.value)}
                aria-label="Key fingerprint"
                placeholder="XXXX-XXXX-XXXX-XXXX-XXXX"
              />
            </label>
          )}
          {!code.trim() && (
            <label>
              Or their passphrase, to make their key at this desk (they type it)
              <input type="password" value={newPass} onChange={(e) => setNewPass(e.target.value)} aria-label="New operator's passphrase" />
            </label>
          )}
          <label>
            Role (signed into the proposal)
            <select value={role} onChange={(e) => setRole(e.target.value as Role)} aria-label="Role">
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <p className="small muted">
            {aRole(role).replace(/^./, (c) => c.toUpperCase())} {ROLE_WORDS[role]}.
          </p>
          <label>
            Proposed by
            <select value={by} onChange={(e) => setBy(e.target.value)} aria-label="Proposed by">
              {state.operators.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Proposer's passphrase
            <input type="password" value={pass} onChange={(e) => setPass(e.target.value)} aria-label="Proposer's passphrase" />
          </label>
          {error && (
            <p className="field-error" role="alert">
              {error}
            </p>
          )}
          <Busy busy={busy} words="Proposing… checking the proposer's passphrase and sealing the new key." />
          <button type="submit">{busy ? 'Proposing…' : 'Propose operator'}</button>
        </fieldset>
      </form>
    </details>
  );
}

/** Tickets taken out of this window because signing them would change nothing: each with why. */
function Withdrawn({ items }: { items: ConfirmState['withdrawn'] }) {
  return (
    <section className="card" aria-label="Withdrawn, no longer signable">
      <h2>Withdrawn, no longer signable</h2>
      <ul data-testid="withdrawn">
        {items.map((w) => (
          <li key={w.id}>
            <strong>{w.title}</strong>: {w.why}.
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ConfirmApp({ desk }: { desk: ConfirmApi }) {
  const [state, setState] = useState<ConfirmState | null>(null);
  const [messages, setMessages] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const r = await desk.confirmState({});
    if (r.ok) setState(r.data);
    else setError(r.error.message);
  }, [desk]);
  useEffect(() => {
    void load();
    return desk.onChanged(() => void load());
  }, [desk, load]);
  const done = (msg: string) => {
    setMessages((m) => [...m, msg]);
    void load();
  };
  return (
    <div className="confirm-page">
      <h1>Treasury Desk — confirmation</h1>
      <p className="muted small">Passphrases are typed only here. What you sign is shown as the desk holds it.</p>
      {messages.length > 0 && (
        <ul className="ok" role="log" aria-label="What was done here">
          {messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {state?.unavailable && <p className="card">{state.unavailable}</p>}
      {state?.first_operator && <FirstOperator credential={state.first_operator} desk={desk} onDone={done} />}
      {state && <Recovery state={state} desk={desk} onDone={done} />}
      {state && state.tickets.length === 0 && !state.first_operator && !state.unavailable && (
        <p className="card muted" data-testid="nothing">
          Nothing waits for a signature.
        </p>
      )}
      {state?.tickets.map((t) => (
        <TicketCard key={t.id} t={t} state={state} desk={desk} onDone={done} />
      ))}
      {state && state.withdrawn.length > 0 && <Withdrawn items={state.withdrawn} />}
      {state && state.operators.length > 0 && <ProposeOperator state={state} desk={desk} onDone={done} />}
      {state && !state.first_operator && !state.unavailable && <MakeOwnKey desk={desk} />}
    </div>
  );
}
