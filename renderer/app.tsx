import { useEffect, useMemo, useRef, useState } from 'react';
import {
  QueryCache,
  QueryClient,
  QueryClientProvider,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { ClientContext, isMnemoApiError, isRetryable, makeClient, useClient } from './api/client.ts';
import { staleBanner, staleReads } from './api/stale-reads.ts';
import { bridge } from './api/bridge.ts';
import { useFollowBrain } from './api/follow-brain.ts';
import {
  brainIsGone,
  brainOptions,
  conflictListKey,
  conflictsOptions,
  type ConflictList,
} from './api/queries.ts';
import {
  answerSessionRequests,
  endSession,
  forgetSession,
  loadSession,
  rememberReturnPath,
  type Session,
} from './api/session.ts';
import { tokenFromLocation } from './api/token.ts';
import { brainTabs, conflictCount, pageTitle } from './nav.ts';
import { Link, navigate, useLocation } from './router.tsx';
import { parseRoute, paths, type Route } from './routes.ts';
import { AskScreen } from './screens/ask.tsx';
import { BrainsScreen } from './screens/brains.tsx';
import { ImportScreen } from './screens/import.tsx';
import { ConflictsScreen } from './screens/conflicts.tsx';
import { KeysScreen } from './screens/keys.tsx';
import { MemoriesScreen } from './screens/memories.tsx';
import { MemoryScreen } from './screens/memory.tsx';
import { RecordScreen } from './screens/record.tsx';
import { ObjectsScreen } from './screens/objects.tsx';
import { ProfileScreen } from './screens/profile.tsx';
import { SyncScreen } from './screens/sync.tsx';
import { RecordsScreen } from './screens/records.tsx';
import { SignIn } from './screens/sign-in.tsx';
import { TraceScreen } from './screens/trace.tsx';
import { TracesScreen } from './screens/traces.tsx';
import { Loading } from './components/status.tsx';

type State =
  { phase: 'loading' } | { phase: 'signed-out'; reason?: unknown } | { phase: 'ready'; session: Session };

export function App() {
  const [state, setState] = useState<State>({ phase: 'loading' });
  useEffect(() => {
    const load = () =>
      loadSession().then(
        (s) => setState(s ? { phase: 'ready', session: s } : { phase: 'signed-out' }),
        (e: unknown) => setState({ phase: 'signed-out', reason: e }),
      );
    void load();
    // A new sign-in link pasted into this tab changes only the fragment, which reloads nothing.
    const onHash = () => {
      if (tokenFromLocation(window.location) === null) return;
      setState({ phase: 'loading' });
      void load();
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const signedIn = state.phase === 'ready';
  // A link opened in a new tab asks the tabs signed in for their session (api/session.ts).
  useEffect(() => (signedIn ? answerSessionRequests() : undefined), [signedIn]);
  if (state.phase === 'loading') return <Loading what="Mnemo" />;
  if (state.phase === 'signed-out')
    return <SignIn reason={state.reason} onSession={(session) => setState({ phase: 'ready', session })} />;
  return (
    <Connected
      session={state.session}
      onSignedOut={(reason) => {
        // The key stopped working (a server restart): drafts stay, and so does where the person was.
        forgetSession();
        rememberReturnPath();
        setState({ phase: 'signed-out', reason });
      }}
    />
  );
}

function Connected({ session, onSignedOut }: { session: Session; onSignedOut: (reason: unknown) => void }) {
  const client = useMemo(() => makeClient(session), [session]);
  // Screens keep showing what they loaded while the server is away or failing (a 5xx); the banner
  // says it may be stale, in the words of the failure it stands for (null: none).
  const [stale, setStale] = useState<unknown>(null);
  const queryClient = useMemo(() => {
    const reads = staleReads(setStale);
    const queryCache = new QueryCache({
      onError: (e, query) => {
        // A revoked or unknown UI key cannot recover by retrying: ask for a new one.
        if (isMnemoApiError(e) && e.type === 'authentication') onSignedOut(e);
        reads.failed(e, query);
      },
      onSuccess: (_data, query) => reads.succeeded(query),
    });
    queryCache.subscribe((event) => {
      const gone =
        event.type === 'removed' ||
        (event.type === 'observerRemoved' && event.query.getObserversCount() === 0);
      if (gone) reads.dropped(event.query);
    });
    return new QueryClient({
      queryCache,
      defaultOptions: {
        queries: { retry: (n, e) => n < 2 && isRetryable(e), staleTime: 2000, refetchOnWindowFocus: true },
        mutations: { retry: false },
      },
    });
  }, [onSignedOut]);
  return (
    <QueryClientProvider client={queryClient}>
      <ClientContext.Provider value={client}>
        <Shell stale={stale} />
      </ClientContext.Provider>
    </QueryClientProvider>
  );
}

function Shell({ stale }: { stale: unknown }) {
  const location = useLocation();
  const queryClient = useQueryClient();
  const path = location.split('?')[0] ?? '/';
  const route = parseRoute(path);
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    void bridge()?.getWarnings().then(setWarnings);
  }, []);
  // One address per page: `/brains` (a Brain's address cut back) is the Brains list's `/`.
  useEffect(() => {
    if (route.name === 'brains' && path !== paths.brains()) navigate(paths.brains(), { replace: true });
  }, [route.name, path]);
  const title = pageTitle(route);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    // Move focus to the new page's heading so keyboard and screen-reader users land on it; a new
    // search on the same page (only the query changed) leaves focus where the person is.
    const main = document.getElementById('main');
    const heading = () => document.querySelector<HTMLElement>('main h1');
    const h1 = heading();
    if (h1 || !main) {
      h1?.focus();
      return;
    }
    // Still loading (a Memory or Trace opened by link): on <main> for now, then on the heading once
    // it is drawn, unless the person has moved focus meanwhile.
    main.focus();
    const observer = new MutationObserver(() => {
      const now = document.activeElement;
      if (now !== main && now !== document.body && now !== null) return observer.disconnect();
      const drawn = heading();
      if (drawn) {
        drawn.focus();
        observer.disconnect();
      }
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [path]);
  const brainId = 'brainId' in route ? route.brainId : null;
  const client = useClient();
  // The Brain of the page, read once (cached): when it is not there, nothing of it is shown or followed.
  const brain = useQuery({ ...brainOptions(client, brainId ?? ''), enabled: brainId !== null });
  const gone = brainId !== null && brainIsGone(brain.error);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to={paths.brains()} className="brand">
          Mnemo
        </Link>
        <nav aria-label="Main">
          <Link to={paths.brains()} aria-current={route.name === 'brains' ? 'page' : undefined}>
            Brains
          </Link>
          <Link to={paths.keys()} aria-current={route.name === 'keys' ? 'page' : undefined}>
            Keys
          </Link>
        </nav>
        {/* In a browser tab: the desktop app is the person's own, and would hand its key back anyway. */}
        {bridge() ? null : (
          <button type="button" className="sign-out" onClick={() => endSession('signed-out')}>
            Sign out
          </button>
        )}
      </header>
      {stale !== null ? (
        <div className="banner warn" role="alert">
          {staleBanner(stale)}{' '}
          <button type="button" onClick={() => void queryClient.refetchQueries({ type: 'active' })}>
            Try again
          </button>
        </div>
      ) : null}
      {warnings.map((w) => (
        <div key={w} className="banner warn" role="alert">
          {w}
        </div>
      ))}
      <div className="layout">
        {brainId && !gone ? <BrainNav brainId={brainId} route={route} /> : null}
        <main id="main" tabIndex={-1}>
          {gone ? <BrainGone brainId={brainId} /> : <Screen route={route} />}
        </main>
      </div>
    </>
  );
}

function BrainNav({ brainId, route }: { brainId: string; route: Route }) {
  const client = useClient();
  const brain = useQuery(brainOptions(client, brainId));
  // Every screen of the Brain follows what agents write, through this one shared poll.
  useFollowBrain(brainId);
  // The open conflicts, counted from the Conflicts screen's own list: the poll keeps it current by
  // reading again only the slots a change touched, where the census would be read whole on every change.
  const qc = useQueryClient();
  const list = useQuery(
    conflictsOptions(client, brainId, () => qc.getQueryData<ConflictList>(conflictListKey(brainId))),
  );
  const conflicts = list.data ? conflictCount(list.data.conflicts.length, list.data.cursor !== null) : null;
  const active =
    route.name === 'brain'
      ? route.tab
      : route.name === 'memory'
        ? 'memories'
        : route.name === 'record'
          ? 'records'
          : route.name === 'trace'
            ? 'traces'
            : null;
  return (
    <nav className="sidebar" aria-label={`Brain ${brainId}`}>
      <p className="sidebar-title">{brain.data?.name ?? brainId}</p>
      {brain.data?.self ? <p className="muted small">memory of {brain.data.self.name}</p> : null}
      <ul>
        {brainTabs.map((t) => (
          <li key={t.tab}>
            <Link
              to={paths.brain(brainId, t.tab)}
              aria-current={active === t.tab ? 'page' : undefined}
              // Named as said ("Conflicts, 2 open"), not as drawn ("Conflicts2").
              {...(t.tab === 'conflicts' && conflicts
                ? { 'aria-label': `${t.label}, ${conflicts.said}` }
                : {})}
            >
              {t.label}
              {t.tab === 'conflicts' && conflicts ? (
                <>
                  {' '}
                  <span className="badge warn nav-count">{conflicts.shown}</span>
                </>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The page's Brain is not there (forgotten, or a mistyped address): said, with the way back. */
function BrainGone({ brainId }: { brainId: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Said where the person is: it can replace a page they were reading.
    heading.current?.focus();
    document.title = 'Brain not found — Mnemo';
  }, []);
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        This Brain does not exist
      </h1>
      <p className="lead">
        There is no Brain <code>{brainId}</code> here (any more): it was forgotten, from this window or
        another, by an agent or with <code>mnemo</code>, or the address is mistyped. Nothing of it is shown or
        followed.
      </p>
      <p>
        <Link to={paths.brains()}>Go to your Brains</Link>
      </p>
    </>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'brains':
      return <BrainsScreen />;
    case 'keys':
      return <KeysScreen />;
    case 'memory':
      return <MemoryScreen key={route.memoryId} brainId={route.brainId} memoryId={route.memoryId} />;
    case 'record':
      return <RecordScreen key={route.recordId} brainId={route.brainId} recordId={route.recordId} />;
    case 'trace':
      return <TraceScreen brainId={route.brainId} traceId={route.traceId} />;
    case 'not-found':
      return (
        <>
          <h1 tabIndex={-1}>Page not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <Link to={paths.brains()}>Go to your Brains</Link>.
          </p>
        </>
      );
    case 'brain':
      switch (route.tab) {
        case 'records':
          return <RecordsScreen key={route.brainId} brainId={route.brainId} />;
        case 'memories':
          return <MemoriesScreen key={route.brainId} brainId={route.brainId} />;
        case 'conflicts':
          return <ConflictsScreen brainId={route.brainId} />;
        case 'objects':
          return <ObjectsScreen brainId={route.brainId} />;
        case 'ask':
          return <AskScreen key={route.brainId} brainId={route.brainId} />;
        case 'traces':
          return <TracesScreen brainId={route.brainId} />;
        case 'profile':
          return <ProfileScreen brainId={route.brainId} />;
        case 'import':
          return <ImportScreen key={route.brainId} brainId={route.brainId} />;
        case 'sync':
          return <SyncScreen key={route.brainId} brainId={route.brainId} />;
      }
  }
}
