import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Brain, BrainCreate, DeletionReceipt } from '../../engine/contract/index.ts';
import { useClient } from '../api/client.ts';
import { syncStatusOptions } from '../api/sync.ts';
import { useCreateBrain, useForgetBrain, useUpdateBrain } from '../api/mutations.ts';
import { brainListOptions, censusOptions, importersObjectsOptions } from '../api/queries.ts';
import { currentApiKey } from '../api/session.ts';
import { CommandLine } from '../components/command-line.tsx';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { formatDateTime, plural } from '../format.ts';
import { brainIdFromName, brainIdPattern, brainIdProblem } from '../brain-id.ts';
import { brainForgotten } from '../forgotten.ts';
import { downloadBrain } from '../brain-download.ts';
import { Link, navigate } from '../router.tsx';
import { paths } from '../routes.ts';
import { TableScroll } from '../components/table-scroll.tsx';

/**
 * Whose Brains the list holds: a Brain belongs to the project (and environment) of the key that made
 * it, so an agent given a key of another project writes where this window never looks.
 */
function ProjectsBrains() {
  // sk_<env>_<project>_<secret>
  const [, env, project] = currentApiKey()?.split('_') ?? [];
  if (!env || !project) return null;
  return (
    <>
      This window shows the Brains of project <code>{project}</code> ({env}); an agent’s Brains appear here
      when its key is of the same project:{' '}
      <CommandLine>{`mnemo keys create --project ${project} --env ${env}`}</CommandLine>
    </>
  );
}

export function BrainsScreen() {
  const client = useClient();
  const brains = useQuery(brainListOptions(client));
  const [forgetting, setForgetting] = useState<Brain | null>(null);
  const [owning, setOwning] = useState<Brain | null>(null);
  // What the last forget or export did, said where the person looks after the row has gone.
  const [forgotten, setForgotten] = useState<string | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportFailed, setExportFailed] = useState<unknown>(null);
  const exportBrain = (b: Brain) => {
    setForgotten(null);
    setExportFailed(null);
    setExporting(b.id);
    downloadBrain(client, b.id)
      .then(({ end, fileName }) =>
        setForgotten(
          `Exported ${plural(end.records, 'Record')}, ${plural(end.memories, 'Memory', 'Memories')} and ` +
            `${plural(end.objects, 'Object')} of “${b.name ?? b.id}” as ${fileName}. The file is not encrypted: ` +
            'keep it where you keep private papers.',
        ),
      )
      .catch((e: unknown) => setExportFailed(e ?? new Error('the export failed')))
      .finally(() => setExporting(null));
  };
  return (
    <>
      <h1 tabIndex={-1}>Brains</h1>
      <p className="lead">
        A Brain is one memory: everything written into it stays inside it. Open one to see what it remembers.
      </p>
      <div role="status">{forgotten ? <p className="notice">{forgotten}</p> : null}</div>
      {exportFailed ? <ErrorNotice error={exportFailed} /> : null}
      <section aria-labelledby="brain-list">
        <h2 id="brain-list">Your Brains</h2>
        {brains.isPending ? (
          <Loading what="Brains" />
        ) : brains.data === undefined || errorHidesData(brains) ? (
          <ErrorNotice error={brains.error} />
        ) : brains.data.data.length === 0 ? (
          <Empty title="No Brains yet">
            Create your first one below. <ProjectsBrains />
          </Empty>
        ) : (
          <TableScroll label="Brains">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Brain</th>
                  <th scope="col">Whose memory</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {brains.data.data.map((b) => (
                  <tr key={b.id}>
                    <td className="wrap-anywhere">
                      <Link to={paths.brain(b.id)} className="strong">
                        {b.name ?? b.id}
                      </Link>
                      {b.name ? <div className="muted mono">{b.id}</div> : null}
                    </td>
                    <td>
                      {b.self ? (
                        `${b.self.name} (${b.self.type === 'org' ? 'organisation' : 'person'})`
                      ) : (
                        <span className="muted">not set</span>
                      )}{' '}
                      {/* A Brain made without one (a hosted Brain a device's first sync made) gets it here. */}
                      <button type="button" className="subtle" onClick={() => setOwning(b)}>
                        {b.self ? 'Change' : 'Set'}
                        <span className="visually-hidden"> whose memory {b.id} is</span>
                      </button>
                    </td>
                    <td>{formatDateTime(b.created_at)}</td>
                    <td className="actions">
                      <button
                        type="button"
                        className="subtle"
                        disabled={exporting !== null}
                        title="Download every Record, Memory and Object of this Brain as a JSON Lines file (not encrypted)"
                        onClick={() => exportBrain(b)}
                      >
                        {exporting === b.id ? 'Exporting…' : 'Export'}
                        <span className="visually-hidden"> {b.id}</span>
                      </button>
                      <button
                        type="button"
                        className="danger subtle"
                        onClick={() => {
                          setForgotten(null);
                          setForgetting(b);
                        }}
                      >
                        Forget<span className="visually-hidden"> {b.id}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <CreateBrainForm />
      {owning ? <OwnerDialog brain={owning} onClose={() => setOwning(null)} /> : null}
      {forgetting ? (
        <ForgetBrainDialog
          brain={forgetting}
          onClose={() => setForgetting(null)}
          onForgotten={(receipt, importersOwn) => {
            setForgetting(null);
            setForgotten(brainForgotten(forgetting.name ?? forgetting.id, receipt, importersOwn));
          }}
        />
      ) : null}
    </>
  );
}

function CreateBrainForm() {
  const create = useCreateBrain();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  // The id follows the name as it is typed, until the person types an id of their own.
  const [idTyped, setIdTyped] = useState(false);
  const [selfType, setSelfType] = useState<'' | 'person' | 'org'>('');
  const [selfName, setSelfName] = useState('');
  // An id the rule refuses, said in the form's words rather than the browser's "match the format".
  const [idProblem, setIdProblem] = useState<string | null>(null);
  const idInput = useRef<HTMLInputElement>(null);
  // The server's refusal was of the form as sent ("a Brain ana already exists"): once a field changes
  // it may no longer hold, and beside a new id it would read as said of that one.
  const edited = () => {
    if (create.isError) create.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: BrainCreate = { id: id.trim() };
    if (name.trim()) body.name = name.trim();
    if (selfType && selfName.trim()) body.self = { type: selfType, name: selfName.trim() };
    create.mutate(body, { onSuccess: (b) => navigate(paths.brain(b.id)) });
  };
  return (
    <section aria-labelledby="new-brain" className="card">
      <h2 id="new-brain">Create a Brain</h2>
      <form onSubmit={submit} className="form">
        <label>
          Name <span className="hint">optional; what the Brain is called here</span>
          <input
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              edited();
              if (idTyped) return;
              setId(brainIdFromName(e.target.value));
              if (idProblem) setIdProblem(null);
            }}
            name="name"
            maxLength={200}
          />
        </label>
        <label>
          Short id{' '}
          <span className="hint">
            made from the name until you change it; letters a–z without accents, digits, dots, dashes and
            underscores, no spaces; used in addresses
          </span>
          <input
            ref={idInput}
            value={id}
            onChange={(e) => {
              setId(e.target.value);
              edited();
              // Emptied, it follows the name again.
              setIdTyped(e.target.value !== '');
              // Said of the id as it was: once edited, it may do now.
              if (idProblem) setIdProblem(null);
            }}
            onInvalid={(e) => {
              const problem = brainIdProblem(e.currentTarget.value);
              if (problem === null) return;
              // Ours instead of the browser's bubble, which says only to match the requested format.
              e.preventDefault();
              setIdProblem(problem);
              idInput.current?.focus();
            }}
            required
            pattern={brainIdPattern}
            maxLength={128}
            name="id"
            aria-invalid={idProblem ? true : undefined}
            aria-describedby={idProblem ? 'brain-id-error' : undefined}
          />
        </label>
        {idProblem ? (
          <p className="field-error" id="brain-id-error" role="alert">
            {idProblem}
          </p>
        ) : null}
        <fieldset>
          <legend>Whose memory is it? (optional)</legend>
          <p className="hint">
            Without this, questions that say “my …” cannot be answered, because nothing is known to belong to
            you.
          </p>
          <div className="row">
            <label>
              Kind
              <select
                value={selfType}
                onChange={(e) => {
                  setSelfType(e.target.value as '' | 'person' | 'org');
                  edited();
                }}
                name="self-type"
              >
                <option value="">Not set</option>
                <option value="person">A person</option>
                <option value="org">An organisation</option>
              </select>
            </label>
            <label>
              Their name
              <input
                value={selfName}
                onChange={(e) => {
                  setSelfName(e.target.value);
                  edited();
                }}
                disabled={!selfType}
                required={!!selfType}
                maxLength={200}
                name="self-name"
              />
            </label>
          </div>
        </fieldset>
        {create.isError ? (
          <ErrorNotice
            error={create.error}
            fields={{ id: 'Short id', name: 'Name', 'self.type': 'Kind', 'self.name': 'Their name' }}
          />
        ) : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create Brain'}
        </button>
      </form>
    </section>
  );
}

/** Whose memory a Brain is, set or changed: its Records are then read again as that person's. */
function OwnerDialog({ brain, onClose }: { brain: Brain; onClose: () => void }) {
  const update = useUpdateBrain(brain.id);
  const [type, setType] = useState<'person' | 'org'>(brain.self?.type ?? 'person');
  const [name, setName] = useState(brain.self?.name ?? '');
  const ready = name.trim() !== '';
  // Said of the kind chosen: an organisation's Brain is no person's.
  const who = type === 'org' ? 'organisation' : 'person';
  return (
    <ConfirmDialog
      open
      title={`Whose memory is “${brain.name ?? brain.id}”?`}
      confirmLabel="Save"
      tone="primary"
      busy={update.isPending}
      confirmDisabled={!ready}
      onCancel={onClose}
      onConfirm={() => {
        if (ready) update.mutate({ self: { type, name: name.trim() } }, { onSuccess: onClose });
      }}
    >
      <p>
        What this {who} says, under this name or as “user”, becomes theirs: Mnemo reads the Brain’s Records
        again in the background, and the Profile fills as it goes.
        {brain.self
          ? ` What was said under the earlier name stays theirs: a new name is the same ${who} renamed.`
          : ''}
      </p>
      <div className="form">
        <label>
          Kind
          <select
            value={type}
            onChange={(e) => setType(e.target.value as 'person' | 'org')}
            name="owner-type"
          >
            <option value="person">A person</option>
            <option value="org">An organisation</option>
          </select>
        </label>
        <label>
          Their name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} name="owner-name" />
        </label>
      </div>
      {update.isError ? (
        <ErrorNotice error={update.error} fields={{ 'self.type': 'Kind', 'self.name': 'Their name' }} />
      ) : null}
    </ConfirmDialog>
  );
}

function ForgetBrainDialog({
  brain,
  onClose,
  onForgotten,
}: {
  brain: Brain;
  onClose: () => void;
  onForgotten: (receipt: DeletionReceipt, importersOwn: number | null) => void;
}) {
  const brainId = brain.id;
  const client = useClient();
  const census = useQuery(censusOptions(client, brainId));
  // The census counts every Object; those the importer keeps for itself were accepted by no one.
  const own = useQuery(importersObjectsOptions(client, brainId));
  const importersOwn = own.data ?? null;
  // Forgetting a Brain here does not reach the Brain it syncs with, whose Records a new pairing brings back.
  const sync = useQuery({ ...syncStatusOptions(client, brainId), refetchInterval: false, retry: false });
  const paired = sync.data?.paired === true ? sync.data : null;
  const forget = useForgetBrain();
  // A whole memory goes at once: its short id typed first, as a slip of Tab and Enter cannot.
  const [typed, setTyped] = useState('');
  const typedIt = typed.trim() === brainId;
  const c = census.data?.counts;
  return (
    <ConfirmDialog
      open
      title={`Forget the Brain “${brain.name ?? brainId}”?`}
      confirmLabel="Forget this Brain"
      busy={forget.isPending}
      confirmDisabled={!typedIt}
      onCancel={onClose}
      onConfirm={() => {
        if (typedIt) forget.mutate(brainId, { onSuccess: (receipt) => onForgotten(receipt, importersOwn) });
      }}
    >
      <p>This removes everything in it, for good. It cannot be undone.</p>
      <label className="field">
        Type its short id, <span className="mono">{brainId}</span>, to forget it
        <input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          name="confirm-brain-id"
          autoComplete="off"
          spellCheck={false}
        />
      </label>
      {paired ? (
        <p className="notice" data-testid="forget-paired">
          It syncs with the Brain “{paired.remote_brain}” at {paired.remote}. That Brain keeps what was sent
          to it: forgetting this one here does not forget it there, and pairing a Brain with it again brings
          its Records back. To forget it everywhere, forget that Brain too.
        </p>
      ) : null}
      {c && !own.isPending ? (
        <ul>
          <li>{plural(c.records, 'Record')} (everything written into it)</li>
          <li>
            {plural(c.memories_active + c.memories_scheduled + c.memories_superseded, 'Memory', 'Memories')},
            including their history
          </li>
          {importersOwn === null ? (
            // Not read: every Object, without saying who accepted it.
            <li>{plural(c.objects, 'Object')}</li>
          ) : (
            <>
              <li>{plural(Math.max(0, c.objects - importersOwn), 'accepted Object')}</li>
              {importersOwn > 0 ? (
                <li>
                  {plural(importersOwn, 'Object')} Mnemo keeps for its imports (what each imported calendar or
                  contacts file held)
                </li>
              ) : null}
            </>
          )}
        </ul>
      ) : census.data === undefined || errorHidesData(census) ? (
        <p className="muted">(The counts could not be read; everything is still removed.)</p>
      ) : (
        <Loading what="what it holds" />
      )}
      {forget.isError ? <ErrorNotice error={forget.error} /> : null}
    </ConfirmDialog>
  );
}
