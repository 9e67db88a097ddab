import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { KeyCreate, KeyInfo, Scope } from '../../engine/contract/index.ts';
import type { KeyCreatedInfo } from '../../server/client/index.ts';
import { MnemoApiError } from '../../server/client/mnemo-api-error.ts';
import { useClient } from '../api/client.ts';
import { useCreateKey, useRevokeKey } from '../api/mutations.ts';
import { isOwnKey } from '../api/own-key.ts';
import { brainListOptions, keyListOptions } from '../api/queries.ts';
import { useRevokeOwnKey } from '../api/revoke-own-key.ts';
import { currentApiKey } from '../api/session.ts';
import { CommandLine } from '../components/command-line.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime } from '../format.ts';
import { useFocusIfLost } from '../use-focus-if-lost.ts';
import { TableScroll } from '../components/table-scroll.tsx';

const scopeWords: Record<Scope, string> = {
  'records:write': 'Write Records',
  'records:read': 'Read Records',
  'memories:read': 'Read Memories',
  'objects:write': 'Accept Objects',
  'objects:read': 'Read Objects',
  'context:read': 'Ask for Context',
};
const allScopes = Object.keys(scopeWords) as Scope[];

export function KeysScreen() {
  const client = useClient();
  const list = useQuery(keyListOptions(client));
  const [revoking, setRevoking] = useState<KeyInfo | null>(null);
  const ownKey = currentApiKey();
  const isOwn = (k: KeyInfo) => ownKey !== null && isOwnKey(k, ownKey);
  // sk_<env>_<project>_<secret>: the project this session's key, and so this list, belongs to.
  const project = ownKey?.split('_')[2] ?? null;
  // A key without admin is refused every key operation: said once, without a form that cannot work.
  const needsAdmin = list.error instanceof MnemoApiError && list.error.status === 403;
  return (
    <>
      <h1 tabIndex={-1}>Keys</h1>
      <p className="lead">
        Keys let agents and applications use your Brains. Revoke a key and it stops working at once.
      </p>
      {needsAdmin ? (
        <p className="status" role="status">
          Making, listing and revoking keys needs the app’s admin key, and this window is signed in with
          another. Sign in with an admin key (the address <code>mnemo serve --ui</code> prints, or the key{' '}
          <CommandLine>mnemo keys create --project local --env live --admin</CommandLine> prints).
        </p>
      ) : (
        <CreateKeyForm />
      )}
      <section aria-labelledby="key-list">
        <h2 id="key-list">
          {project ? (
            <>
              Keys of project <code>{project}</code>
            </>
          ) : (
            'Keys'
          )}
        </h2>
        <p className="muted small">
          The app manages the keys of its own project. Keys made for another project, as{' '}
          <code>mnemo keys create --project …</code> makes them, are listed by <code>mnemo keys list</code>{' '}
          and revoked by <code>mnemo keys revoke</code> in a terminal.
        </p>
        {list.isPending ? (
          <Loading what="keys" />
        ) : needsAdmin ? null : list.data === undefined || errorHidesData(list) ? (
          <ErrorNotice error={list.error} />
        ) : list.data.data.length === 0 ? (
          <Empty title="No keys yet" />
        ) : (
          <TableScroll label="Keys">
            <table className="table" aria-label="Keys">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Label</th>
                  <th scope="col">Can</th>
                  <th scope="col">Brain</th>
                  <th scope="col">Created</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((k) => (
                  <tr key={k.id}>
                    <td className="mono">
                      {k.prefix}_…{k.last4}
                    </td>
                    <td className="wrap-anywhere">
                      {k.label ?? <span className="muted">—</span>}
                      {isOwn(k) ? (
                        <>
                          {' '}
                          <span className="badge warn">this window</span>
                        </>
                      ) : null}
                    </td>
                    <td className="small">
                      {k.scopes.length === allScopes.length
                        ? 'Everything'
                        : k.scopes.map((s) => scopeWords[s]).join(', ')}
                      {k.admin ? (
                        <>
                          {', '}
                          <strong>and manage keys</strong>
                        </>
                      ) : null}
                    </td>
                    <td className="wrap-anywhere">{k.brain ?? <span className="muted">any</span>}</td>
                    <td>{formatDateTime(k.created_at)}</td>
                    <td>
                      {k.revoked_at ? (
                        <span className="badge muted">Revoked {formatDateTime(k.revoked_at)}</span>
                      ) : (
                        <button type="button" className="danger subtle" onClick={() => setRevoking(k)}>
                          Revoke<span className="visually-hidden"> key ending {k.last4}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      {revoking === null ? null : isOwn(revoking) ? (
        <RevokeOwnKeyDialog k={revoking} onClose={() => setRevoking(null)} />
      ) : (
        <RevokeDialog k={revoking} onClose={() => setRevoking(null)} />
      )}
    </>
  );
}

function CreateKeyForm() {
  const client = useClient();
  const brains = useQuery(brainListOptions(client));
  const create = useCreateKey();
  const [env, setEnv] = useState<'test' | 'live'>('live');
  const [label, setLabel] = useState('');
  const [brain, setBrain] = useState('');
  const [scopes, setScopes] = useState<Set<Scope>>(new Set(allScopes));
  const [created, setCreated] = useState<KeyCreatedInfo | null>(null);
  // Back from the new key (Done went with it): focus comes to the form's first field.
  const afterDone = useFocusIfLost<HTMLInputElement>(created === null);
  const [noScope, setNoScope] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (create.isPending) return;
    // Said, not a silent disabled button: a key that may do nothing is no key.
    setNoScope(scopes.size === 0);
    if (scopes.size === 0) return;
    const body: KeyCreate = { env, scopes: allScopes.filter((s) => scopes.has(s)) };
    if (label.trim()) body.label = label.trim();
    if (brain) body.brain = brain;
    create.mutate(body, {
      onSuccess: (k) => {
        setCreated(k);
        // After Done the form is for the next key: this one's label and Brain would make a twin.
        setLabel('');
        setBrain('');
        setEnv('live');
        setScopes(new Set(allScopes));
      },
    });
  };
  const toggle = (s: Scope) =>
    setScopes((prev) => {
      const next = new Set(prev);
      if (next.has(s)) next.delete(s);
      else next.add(s);
      return next;
    });
  return (
    <section className="card" aria-labelledby="new-key">
      <h2 id="new-key">Create a key</h2>
      {created ? (
        <NewKey
          secret={created.secret}
          // A server from before `warnings` sends none.
          warnings={(created.warnings ?? []).map((w) => w.message)}
          onDone={() => setCreated(null)}
        />
      ) : (
        <form className="form" onSubmit={submit}>
          <div className="row">
            <label>
              Label <span className="hint">so you know what uses it</span>
              <input
                value={label}
                onChange={(e) => setLabel(e.target.value)}
                name="label"
                maxLength={200}
                ref={afterDone}
              />
            </label>
            <label>
              Environment
              <select value={env} onChange={(e) => setEnv(e.target.value as 'test' | 'live')}>
                <option value="live">Live</option>
                <option value="test">Test (sees only test Brains)</option>
              </select>
            </label>
            <label>
              Only this Brain
              <select value={brain} onChange={(e) => setBrain(e.target.value)}>
                <option value="">Any Brain</option>
                {brains.data?.data.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name ?? b.id}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <fieldset>
            <legend>What it may do</legend>
            <div className="checks">
              {allScopes.map((s) => (
                <label key={s} className="check">
                  <input type="checkbox" checked={scopes.has(s)} onChange={() => toggle(s)} />
                  {scopeWords[s]}
                </label>
              ))}
            </div>
          </fieldset>
          {noScope && scopes.size === 0 ? (
            <p className="field-error" role="alert">
              Choose at least one thing the key may do.
            </p>
          ) : null}
          {create.isError ? (
            <ErrorNotice
              error={create.error}
              fields={{
                label: 'Label',
                env: 'Environment',
                brain: 'Only this Brain',
                scopes: 'What it may do',
              }}
            />
          ) : null}
          {/* aria-disabled, not disabled: a disabled button would drop keyboard focus to <body>. */}
          <button type="submit" className="primary" aria-disabled={create.isPending || undefined}>
            {create.isPending ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}
    </section>
  );
}

/** The new key, shown once where the form was: it takes focus, as the button pressed went with the form. */
function NewKey({ secret, warnings, onDone }: { secret: string; warnings: string[]; onDone: () => void }) {
  const ref = useFocusIfLost<HTMLDivElement>();
  return (
    <div className="secret" role="status" tabIndex={-1} ref={ref}>
      <p>
        <strong>Copy this key now.</strong> It is shown only once and cannot be seen again.
      </p>
      {/* What the server asks to check (a test key bound to a Brain only the live env holds, say). */}
      {warnings.map((w) => (
        <p key={w} data-testid="new-key-warning">
          <strong>Check:</strong> {w}
        </p>
      ))}
      <p>
        <code className="secret-value" data-testid="new-key-secret">
          {secret}
        </code>
      </p>
      <div className="row">
        <CopyButton what="the key" text={secret} />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function RevokeDialog({ k, onClose }: { k: KeyInfo; onClose: () => void }) {
  const revoke = useRevokeKey();
  return (
    <ConfirmDialog
      open
      title="Revoke this key?"
      confirmLabel="Revoke key"
      busy={revoke.isPending}
      onCancel={onClose}
      onConfirm={() => revoke.mutate(k.id, { onSuccess: onClose })}
    >
      <p>
        Anything using{' '}
        <code>
          {k.prefix}_…{k.last4}
        </code>
        {k.label ? ` (${k.label})` : ''} loses access immediately. A revoked key never works again.
      </p>
      {revoke.isError ? <ErrorNotice error={revoke.error} /> : null}
    </ConfirmDialog>
  );
}

/** Revoking the key this window runs on signs it out: said before it is done, with the way back in. */
function RevokeOwnKeyDialog({ k, onClose }: { k: KeyInfo; onClose: () => void }) {
  const revoke = useRevokeOwnKey();
  return (
    <ConfirmDialog
      open
      title="Revoke the key this window uses?"
      confirmLabel="Revoke and sign out"
      busy={revoke.isPending}
      onCancel={onClose}
      onConfirm={() => revoke.mutate(k.id)}
    >
      <p>
        <code>
          {k.prefix}_…{k.last4}
        </code>
        {k.label ? ` (${k.label})` : ''} is the key this window is signed in with.{' '}
        <strong>Revoking it signs this window out at once</strong>, and anything else using it loses access
        too. A revoked key never works again.
      </p>
      <p>
        To come back in you will need a new key: run{' '}
        <CommandLine>mnemo keys create --project local --env live --admin</CommandLine> (with the server’s{' '}
        <code>--data-dir</code>, if it was given one) in a terminal and paste the key it prints on the sign-in
        screen.
      </p>
      {revoke.isError ? <ErrorNotice error={revoke.error} /> : null}
    </ConfirmDialog>
  );
}
