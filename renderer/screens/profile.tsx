import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import type { Memory, Profile } from '../../engine/contract/index.ts';
import { profileGroups, type ProfileGroup } from '../../engine/contract/profile-group.ts';
import { useClient } from '../api/client.ts';
import { useProfileClock } from '../api/follow-brain.ts';
import { contestedOptions } from '../api/profile-contested.ts';
import { censusOptions, importersObjectsOptions, profileOptions, recordOptions } from '../api/queries.ts';
import { BarChart } from '../components/bar-chart.tsx';
import { CensusExample } from '../components/census-example.tsx';
import { ShowMore } from '../components/show-more.tsx';
import { Empty, ErrorNotice, Loading, errorHidesData } from '../components/status.tsx';
import { disagreements } from '../disagreements.ts';
import { memoryDays } from '../all-day.ts';
import {
  inOwnWords,
  quoteAddsWords,
  quoteLabel,
  sameWordsLabel,
  statementLabel,
  wordedForThePerson,
} from '../record-text.ts';
import { formatDate, formatDateTime, oneLine } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

const noiseNames: Record<string, string> = {
  duplicates: 'Said more than once',
  conflicts: 'Sources disagree',
  unresolved_owner: 'Not sure whose',
  pending_rederivation: 'Being worked out again',
  low_trust_source: 'From less trusted sources',
  retracted: 'Withdrawn',
  derivation_failed: 'Could not be read',
};

/** Each group's heading, in the Profile's order (the server's: health, slots, the rest). */
const groupNames: Record<ProfileGroup, string> = {
  health: 'Health',
  slot: 'Home, work, people and other details',
  other: 'Everything else',
};

/**
 * The owner's current Memories, under a heading for each group (a screen reader's list of headings
 * reaches health at once). A line whose slot holds another current value is marked, with the other
 * values and the way to Conflicts: stated side by side as plain facts, "lives in Lisbon" and "lives
 * in Porto" read as two truths.
 */
function ProfileLines({ brainId, self, lines }: { brainId: string; self: string; lines: Profile['lines'] }) {
  const client = useClient();
  const contested = useQuery(contestedOptions(client, brainId));
  const disputed = disagreements(contested.data ?? []);
  const marked = lines.filter((l) => disputed.has(l.memory_id)).length;
  const groups = profileGroups
    .map((g) => ({ group: g, lines: lines.filter((l) => l.group === g) }))
    .filter((g) => g.lines.length > 0);
  return (
    <>
      {marked > 0 ? (
        <p className="notice">
          {marked === 1 ? '1 line disagrees' : `${marked} lines disagree`} with another current value.{' '}
          <Link to={paths.brain(brainId, 'conflicts')}>Settle them on Conflicts</Link>.
        </p>
      ) : null}
      {groups.map(({ group, lines: shown }) => {
        // One group alone needs no heading ("Everything else" of nothing).
        const heading = groups.length > 1 ? `profile-${group}` : undefined;
        return (
          <Fragment key={group}>
            {heading ? <h3 id={heading}>{groupNames[group]}</h3> : null}
            <ul className="list" aria-labelledby={heading}>
              {shown.map((l) => (
                <ProfileLine
                  key={l.memory_id}
                  brainId={brainId}
                  self={self}
                  line={l}
                  others={disputed.get(l.memory_id)}
                />
              ))}
            </ul>
          </Fragment>
        );
      })}
    </>
  );
}

function ProfileLine({
  brainId,
  self,
  line: l,
  others,
}: {
  brainId: string;
  self: string;
  line: Profile['lines'][number];
  others: Memory[] | undefined;
}) {
  // Every line is the owner's: their name, where a fact's line has only the engine's word for them.
  const line = { ...l, owner: { state: 'self', entity: self } };
  const quoted = inOwnWords(line);
  const said = <Link to={paths.memory(brainId, l.memory_id)}>{oneLine(statementLabel(line), 300)}</Link>;
  return (
    <li className="list-item">
      <div className="item-main">
        <p className={`record-line${quoted ? ' own-words' : ''}`} dir="auto">
          {/* The source's own words, as a quotation: apart from the engine's statements. */}
          {quoted ? <>“{said}”</> : said}
        </p>
        <p className="meta">
          <span>since {formatDate(l.valid_from, memoryDays(l) !== null)}</span>
          <LineSources brainId={brainId} line={line} />
        </p>
        {others ? <Disagreement brainId={brainId} others={others} /> : null}
      </div>
    </li>
  );
}

/**
 * A line's citations: each quote that says more than the line, and, where a quote is the line word for
 * word (a sentence that holds its slot in its own words, a fact's line), a link to its Record instead
 * of the same words again: "said in these words" where the line is shown as said, "from a fact" where
 * the page worded a fact's line for the person.
 */
function LineSources({
  brainId,
  line,
}: {
  brainId: string;
  line: Profile['lines'][number] & { owner: { state: string; entity: string } };
}) {
  const adding = line.citations.filter((c) => quoteAddsWords(c.quote, line));
  const repeating = line.citations.find((c) => !quoteAddsWords(c.quote, line));
  return (
    <>
      {adding.map((c, i) => (
        <span key={i} dir="auto">
          “
          <mark>
            <LineQuote brainId={brainId} quote={c.quote} recordId={c.record_id} line={line} />
          </mark>
          ”
        </span>
      ))}
      {repeating ? <SameWordsLink brainId={brainId} recordId={repeating.record_id} line={line} /> : null}
    </>
  );
}

/**
 * The link to the Record a line repeats word for word, named for what it is (sameWordsLabel). A line
 * the page worded reads its Record's kind (cached for good: Records never change), so a correction
 * that keeps a fact's wording is not called a fact; a line in its own words reads nothing.
 */
function SameWordsLink({
  brainId,
  recordId,
  line,
}: {
  brainId: string;
  recordId: string;
  line: Profile['lines'][number] & { owner: { state: string; entity: string } };
}) {
  const client = useClient();
  const record = useQuery({ ...recordOptions(client, brainId, recordId), enabled: wordedForThePerson(line) });
  return (
    <Link to={paths.record(brainId, recordId)} title="Open the Record">
      {sameWordsLabel(line, record.data?.content.kind)}
    </Link>
  );
}

/**
 * A line's quote as shown: a fact Record's line in the words a fact's line is given everywhere
 * ("Lucía's home city is Tokyo", quoteLabel). A citation does not say its Record's kind, so a quote that
 * could be a fact's line, one quoteLabel would word ("self <predicate>: <value>" or the line's subject
 * first), reads its Record (cached for good: Records never change); any other quote reads nothing, and
 * a message's "self care: went for a run" stays as said.
 */
function LineQuote({
  brainId,
  quote,
  recordId,
  line,
}: {
  brainId: string;
  quote: string;
  recordId: string;
  line: Profile['lines'][number] & { owner: { state: string; entity: string } };
}) {
  const client = useClient();
  const mayBeFact =
    quote !== line.statement &&
    quote.includes(': ') &&
    (quote.startsWith('self ') || quote.startsWith(`${line.subject} `));
  const record = useQuery({ ...recordOptions(client, brainId, recordId), enabled: mayBeFact });
  return <>{quoteLabel(quote, line, record.data?.content.kind)}</>;
}

function Disagreement({ brainId, others }: { brainId: string; others: Memory[] }) {
  return (
    <p className="meta">
      <span className="badge warn">Sources disagree</span>
      {others.length > 0 ? (
        <span dir="auto">
          also said:{' '}
          {others.map((o, i) => (
            <span key={o.id}>
              {i > 0 ? ', ' : ''}
              <Link to={paths.memory(brainId, o.id)}>{statementLabel(o)}</Link>
            </span>
          ))}
        </span>
      ) : null}
      <Link to={paths.brain(brainId, 'conflicts')}>Pick one on Conflicts</Link>
    </p>
  );
}

export function ProfileScreen({ brainId }: { brainId: string }) {
  const client = useClient();
  const qc = useQueryClient();
  const profile = useInfiniteQuery(profileOptions(client, brainId, qc));
  // A value dated later begins (or one in force ends) with no write: shown when it does.
  useProfileClock(brainId);
  const self = profile.data?.pages[0]?.self ?? null;
  // Each line once: a line put among the loaded ones by a change (useFollowBrain) where the server
  // would put it a little further on can come again with "Show more".
  const lines = [
    ...new Map((profile.data?.pages.flatMap((p) => p.lines) ?? []).map((l) => [l.memory_id, l])).values(),
  ];
  const census = useQuery(censusOptions(client, brainId, qc));
  // The census counts every Object, the importer's own too (one per imported calendar or contacts
  // file), which the person accepted none of: said apart, as the Forget-Brain dialog says them.
  const own = useQuery(importersObjectsOptions(client, brainId));
  return (
    <>
      <h1 tabIndex={-1}>Profile and Census</h1>
      <section aria-labelledby="profile">
        <h2 id="profile">Profile</h2>
        <p className="lead">
          What this Brain currently knows about its owner: their health first (allergies, conditions,
          medication), then where they live and work and the like, then everything else, each newest first.
          Every line cites its source.
        </p>
        {profile.isPending ? (
          <Loading what="the profile" />
        ) : profile.data === undefined || errorHidesData(profile) ? (
          <ErrorNotice error={profile.error} />
        ) : !self ? (
          <Empty title="This Brain does not know whose memory it is">
            It was created without an owner, so nothing can be said about “you”. Set whose it is on the{' '}
            <Link to={paths.brains()}>Brains</Link> page: what they said becomes theirs.
          </Empty>
        ) : lines.length === 0 ? (
          <Empty title={`Nothing known about ${self.name} yet`} />
        ) : (
          <>
            <p className="hint">
              Lines in quotation marks are their source’s own words, as said; the others are Mnemo’s
              statements, which speak of {self.name} by name.
            </p>
            <ProfileLines brainId={brainId} self={self.name} lines={lines} />
            <ShowMore list={profile} label="Show more" />
          </>
        )}
      </section>
      <section aria-labelledby="census">
        <h2 id="census">Census</h2>
        <p className="lead">How much this Brain holds, and what in it is noisy.</p>
        {census.isPending ? (
          <Loading what="the census" />
        ) : census.data === undefined || errorHidesData(census) ? (
          <ErrorNotice error={census.error} />
        ) : (
          <>
            <dl className="facts">
              <dt>Records</dt>
              <dd>
                {census.data.counts.records.toLocaleString()}
                {census.data.counts.records_processing
                  ? ` (${census.data.counts.records_processing} processing)`
                  : ''}
              </dd>
              <dt>Current Memories</dt>
              <dd>{census.data.counts.memories_active.toLocaleString()}</dd>
              {census.data.counts.memories_scheduled ? (
                <>
                  <dt>Values that start later</dt>
                  <dd>{census.data.counts.memories_scheduled.toLocaleString()}</dd>
                </>
              ) : null}
              <dt>Replaced versions</dt>
              <dd>{census.data.counts.memories_superseded.toLocaleString()}</dd>
              <dt>Being worked out again</dt>
              <dd>{census.data.counts.memories_pending_rederivation.toLocaleString()}</dd>
              {own.isPending ? (
                <>
                  <dt>Accepted Objects</dt>
                  <dd className="muted">counting…</dd>
                </>
              ) : own.data === undefined ? (
                // Not read: every Object, without saying who accepted it.
                <>
                  <dt>Objects</dt>
                  <dd>{census.data.counts.objects.toLocaleString()}</dd>
                </>
              ) : (
                <>
                  <dt>Accepted Objects</dt>
                  <dd>{Math.max(0, census.data.counts.objects - own.data).toLocaleString()}</dd>
                  {own.data > 0 ? (
                    <>
                      <dt>Objects Mnemo keeps for its imports</dt>
                      <dd>
                        {own.data.toLocaleString()}{' '}
                        <span className="muted">(what each imported calendar or contacts file held)</span>
                      </dd>
                    </>
                  ) : null}
                </>
              )}
              <dt>Counted</dt>
              <dd>{formatDateTime(census.data.generated_at)}</dd>
            </dl>
            {census.data.noise.length === 0 || census.data.noise.every((n) => n.count === 0) ? (
              <Empty title="Nothing noisy">No duplicates, disagreements or unclear owners were found.</Empty>
            ) : (
              <>
                <BarChart
                  title="What is noisy, noisiest first"
                  bars={census.data.noise.map((n) => ({
                    label: noiseNames[n.kind] ?? n.kind,
                    value: n.count,
                    tone: 'warn',
                  }))}
                />
                <ul className="list compact">
                  {census.data.noise.map((n) => (
                    <li key={n.kind}>
                      <strong>{noiseNames[n.kind] ?? n.kind}</strong> ({n.count}): {n.description}
                      {n.examples.length ? (
                        <span className="muted small">
                          {' '}
                          e.g.{' '}
                          {n.examples.map((x, i) => (
                            <span key={x}>
                              {i ? ', ' : ''}
                              <CensusExample brainId={brainId} id={x} />
                            </span>
                          ))}
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </section>
    </>
  );
}
