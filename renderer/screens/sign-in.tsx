import { useState, type FormEvent } from 'react';
import { makeClient } from '../api/client.ts';
import {
  clearReturnPath,
  clearSignOutReason,
  forgetSession,
  sessionFromKey,
  signOutReason,
  type Session,
} from '../api/session.ts';
import { CommandLine } from '../components/command-line.tsx';
import { ErrorNotice } from '../components/status.tsx';

/**
 * Shown when no key is known: the one-time link was already used, or the page was opened without it.
 * The pasted key is checked with one harmless read before it is kept.
 */
export function SignIn({ onSession, reason }: { onSession: (s: Session) => void; reason?: unknown }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>(reason ?? null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const session = sessionFromKey(key);
    try {
      await makeClient(session).listBrains();
      clearSignOutReason();
      // Signed in on the page the person is on: nothing to go back to later.
      clearReturnPath();
      onSession(session);
    } catch (err) {
      forgetSession();
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <h1 tabIndex={-1}>Open Mnemo</h1>
      <p className="lead">
        Use the address <code>mnemo serve --ui</code> printed (it signs you in once), or paste an API key:{' '}
        <CommandLine>mnemo keys create --project local --env live --admin</CommandLine> makes one (with the
        server’s <code>--data-dir</code>, if it was given one).
      </p>
      {signOutReason() === 'signed-out' ? (
        <p className="notice" role="status" data-testid="signed-out">
          You signed out of this window. Its key still works until you revoke it on Keys: paste it again, or
          open the address <code>mnemo serve --ui</code> printed.
        </p>
      ) : null}
      {signOutReason() === 'own-key-revoked' ? (
        <p className="notice" role="status">
          You revoked the key this window was signed in with, so it signed out. To come back in, run{' '}
          <CommandLine>mnemo keys create --project local --env live --admin</CommandLine> (with the server’s{' '}
          <code>--data-dir</code>, if it was given one) and paste the key it prints.
        </p>
      ) : null}
      <form className="form card" onSubmit={(e) => void submit(e)}>
        <label>
          API key
          <input
            value={key}
            onChange={(e) => setKey(e.target.value)}
            type="password"
            autoComplete="off"
            required
            placeholder="sk_live_…"
            name="api-key"
          />
        </label>
        {error ? <ErrorNotice error={error} /> : null}
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Open'}
        </button>
      </form>
    </main>
  );
}
