/*
 * A home is a place. "Moved to" is said of tools as often as of cities ("We moved to Slack", "we moved
 * to Postgres last year"), and a tool read as a home would supersede where the speaker lives. Nothing
 * in a capitalised name's spelling tells "Slack" from "Lisbon", so a home is read only when nothing in
 * the sentence says the name is no place:
 * - it is, or opens with, the name of a product, a service or a technology that people move their work,
 *   chat, mail, code or data to (`products` below: the ones said of a move, not every brand);
 * - it is written as a web address is ("Fly.io", "Monday.com");
 * - and for a move (not "I live in"), the move is told as a switch of tools: from one of those ("to
 *   Mattermost from Slack"), or in a sentence that speaks of software ("the app", "our database",
 *   "migrated", "switched").
 * A home said beside such words is missed (the sentence stays a Memory of its own, and the old home
 * current until a later one or a correction): a tool read as a home replaces a true one, which costs more.
 * A product not listed still slips through; a correction undoes it.
 */

/**
 * Names of what people and teams move to, lower case: a value that is one of them, or opens with one
 * ("Google Docs", "Microsoft Teams", "GitHub Actions"), is no place. None is a place people move to:
 * Java, Phoenix and Swift are left out for the island and the cities.
 */
export const products = new Set(
  `slack teams discord zoom skype webex whatsapp telegram mattermost zulip hipchat element messenger
   imessage facetime hangouts threema viber wechat irc mastodon bluesky threads twitter tiktok instagram
   facebook linkedin substack medium wordpress squarespace wix webflow shopify etsy patreon youtube twitch
   reddit gmail outlook fastmail protonmail proton thunderbird hey office sharepoint onedrive dropbox
   icloud notion obsidian evernote onenote logseq confluence coda airtable quip jira linear asana trello
   clickup basecamp todoist wrike smartsheet miro mural figma canva loom calendly github gitlab bitbucket
   gitea jenkins circleci buildkite vercel netlify heroku cloudflare fastly akamai aws azure gcp
   digitalocean linode hetzner ovh kubernetes k8s docker terraform ansible openshift postgres postgresql
   mysql mariadb sqlite mongodb mongo redis cassandra dynamodb firestore firebase supabase snowflake
   bigquery redshift databricks clickhouse elasticsearch opensearch kafka typescript javascript python
   kotlin scala elixir erlang haskell rust golang ruby php perl clojure dart flutter react vue angular
   svelte django rails laravel node deno linux ubuntu debian fedora windows macos mac android ios iphone
   ipad chromebook chromeos salesforce hubspot zendesk intercom freshdesk stripe paypal xero quickbooks
   workday bamboohr gusto rippling sap netsuite spotify netflix chatgpt openai claude gemini copilot
   google microsoft amazon adobe atlassian oracle ibm zoho jetbrains signal box`.split(/\s+/u),
);
/**
 * Employers, banks and providers people "move to" as often as to a city ("I moved to Meta in March",
 * "I relocated to Accenture", "I moved to Revolut"): a home read from one replaced a true one.
 */
const employers = new Set(
  `meta deloitte accenture pwc kpmg mckinsey bcg nvidia tesla uber lyft airbnb vanguard fidelity
   schwab revolut monzo wise verizon vodafone comcast costco walmart starbucks infosys wipro capgemini`.split(
    /\s+/u,
  ),
);

/** Products that also open a place's name ("Signal Hill", "Box Hill"): no place only said alone. */
const aloneOnly = new Set(['signal', 'box']);

/** Whether a capitalised name is, or opens with, a product's name (`products`). */
function isProduct(value: string): boolean {
  const words = value.toLowerCase().split(/\s+/u);
  const first = words[0]!;
  return (products.has(first) || employers.has(first)) && (words.length === 1 || !aloneOnly.has(first));
}

/**
 * A web address's dot, a letter before it and a lower-case one after ("Fly.io", "Monday.com"). A place's
 * initials have a capital after each dot ("Washington D.C.", "L.A."), and other abbreviations a space.
 */
const webAddress = /\p{L}\.\p{Ll}/u;

/** Words of software: a move told with them is one of tools ("we moved our app to …", "migrated"). */
const softwareWords =
  /(?<![\p{L}\p{N}])(?:apps?|tools?|tooling|platforms?|software|saas|databases?|servers?|hosting|stack|frameworks?|codebase|repos?|repositor(?:y|ies)|backend|frontend|back-end|front-end|infra|infrastructure|migrat(?:e|ed|es|ing|ion)|switched|workspaces?|ci|pipelines?)(?![\p{L}\p{N}])/iu;

/** A move from a product, after the value: " from HipChat". */
const fromName = /^,?\s+from\s+(\p{Lu}[\p{L}\p{M}'’.&-]*(?:\s+\p{Lu}[\p{L}\p{M}'’.&-]*){0,3})/u;

/** Where one moves at work: a department ("I moved to Marketing last month"). */
const departments = new Set(
  `marketing engineering sales support hr finance legal operations ops product design research
   accounting compliance security it qa procurement logistics management admin`.split(/\s+/u),
);

/**
 * Whether the home a sentence would give (`value`, ending at `valueEnd`) is no place: a product, a
 * web address or a department; for a move (`moved`), also a numbered stage ("Phase 2"), a move from a
 * product (`from`, named before the value: "from Slack to Teams"; or after it: "to Mattermost from
 * Slack") or one the sentence tells in words of software.
 */
export function notAPlace(
  sentence: string,
  value: string,
  valueEnd: number,
  moved: boolean,
  from?: string,
): boolean {
  if (isProduct(value) || webAddress.test(value) || departments.has(value.toLowerCase())) return true;
  if (!moved) return false;
  // A stage is numbered, a place is not: "We moved to Phase 2", "moved to Round 2"; a number that
  // counts how long ago is a time ("moved to Porto 2 weeks ago").
  if (/^\s+\d(?!\d*\s+(?:days?|weeks?|months?|years?)\s+ago(?![\p{L}\p{N}]))/u.test(sentence.slice(valueEnd)))
    return true;
  const after = fromName.exec(sentence.slice(valueEnd))?.[1];
  return [from, after].some((f) => f !== undefined && isProduct(f)) || softwareWords.test(sentence);
}
