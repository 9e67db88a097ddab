import { errorMessage } from '../../../engine/index.ts';
import { isObj, str } from './json-fields.ts';
import { noteName } from './note-file.ts';

/**
 * JSON Canvas 1.0 (jsoncanvas.org), as Obsidian saves a `.canvas`: cards placed on a plane, with
 * nothing but their places to say in which order they are read. Only what reading needs is kept.
 */
interface CanvasNode {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  text?: string;
  file?: string;
  subpath?: string;
  url?: string;
  label?: string;
}

interface CanvasEdge {
  fromNode: string;
  toNode: string;
  label?: string;
}

// A card without a usable place is still read: at the origin, rather than lost.
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The list under KEY: absent is none (the spec makes both optional); anything else is no canvas. */
function listOf(canvas: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const v = canvas[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Error(`not a JSON Canvas: "${key}" is not a list`);
  return v.filter(isObj);
}

function asNode(n: Record<string, unknown>): CanvasNode | null {
  const id = str(n.id);
  if (id === undefined) return null;
  return {
    id,
    type: str(n.type) ?? '',
    x: num(n.x),
    y: num(n.y),
    width: num(n.width),
    height: num(n.height),
    text: str(n.text),
    file: str(n.file),
    subpath: str(n.subpath),
    url: str(n.url),
    label: str(n.label),
  };
}

/** The canvas in TEXT; throws, saying why, when TEXT is not one. */
function parseCanvas(text: string): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`invalid JSON (${errorMessage(e)})`);
  }
  if (!isObj(data)) throw new Error('not a JSON Canvas: not an object');
  const nodes = listOf(data, 'nodes')
    .map(asNode)
    .filter((n) => n !== null);
  const edges = listOf(data, 'edges').flatMap((e) => {
    const [fromNode, toNode] = [str(e.fromNode), str(e.toNode)];
    return fromNode === undefined || toNode === undefined ? [] : [{ fromNode, toNode, label: str(e.label) }];
  });
  return { nodes, edges };
}

const area = (n: CanvasNode) => n.width * n.height;

const inside = (n: CanvasNode, g: CanvasNode) =>
  n.x >= g.x && n.y >= g.y && n.x + n.width <= g.x + g.width && n.y + n.height <= g.y + g.height;

/**
 * The group each node lies in: the smallest that holds it whole, as Obsidian moves a group's cards
 * with it. A group of the same size as another counts as inside the one listed first, so two
 * groups laid over each other cannot each hold the other.
 */
function groupOf(nodes: CanvasNode[]): Map<CanvasNode, CanvasNode> {
  const groups = nodes.filter((n) => n.type === 'group');
  const order = new Map(nodes.map((n, i) => [n, i]));
  const holds = (g: CanvasNode, n: CanvasNode) =>
    g !== n && inside(n, g) && (area(g) > area(n) || (area(g) === area(n) && order.get(g)! < order.get(n)!));
  // Of two the same size, the later is inside the earlier: the innermost holds the node.
  const smallest = (a: CanvasNode, b: CanvasNode) => (area(b) <= area(a) ? b : a);
  const out = new Map<CanvasNode, CanvasNode>();
  for (const n of nodes) {
    const around = groups.filter((g) => holds(g, n));
    if (around.length > 0) out.set(n, around.reduce(smallest));
  }
  return out;
}

/** Top to bottom, then left to right: how a plan or a mind map laid out on a page is read. */
const readingOrder = (a: CanvasNode, b: CanvasNode) => a.y - b.y || a.x - b.x;

/**
 * How a file card is written: a note as a wikilink by its name (`[[Plan#Goals]]`), the form the
 * notes' Links footer and Obsidian's own shortest links use; any other file (an image, a PDF, another
 * canvas) as the embed Obsidian shows it as (`![[chart.png]]`), which the notes' reading already
 * treats as no prose.
 */
function fileReference(file: string, subpath = ''): string {
  const name = file.split('/').at(-1)!;
  if (!/\.(md|markdown)$/i.test(name)) return `![[${name}]]`;
  const sub = subpath === '' || subpath.startsWith('#') ? subpath : `#${subpath}`;
  return `[[${noteName(name)}${sub}]]`;
}

/** What a card says, as its own paragraph; '' for nothing. */
function cardText(n: CanvasNode): string {
  if (n.type === 'text') return (n.text ?? '').replace(/\r\n?/g, '\n').trim();
  if (n.type === 'file' && n.file) return fileReference(n.file, n.subpath);
  if (n.type === 'link') return (n.url ?? '').trim();
  return '';
}

/** A card's name in an edge's line: a text card by its first line, shortened; others as written. */
function cardName(n: CanvasNode): string {
  if (n.type === 'group') return n.label?.trim() || 'group';
  const text = cardText(n);
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const line = first.replace(/^\s*(?:#{1,6}\s+|[-*+]\s+(?:\[[ xX]\]\s+)?|>\s*)/, '').trim();
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line || n.id;
}

/**
 * The paragraphs of NODES in reading order, each group as a heading by its label and then the cards
 * inside it. A group outside any other is a `##` heading, as a section under the canvas's own title
 * would be; each group it lies in adds a level.
 */
function paragraphs(
  nodes: CanvasNode[],
  children: Map<CanvasNode | null, CanvasNode[]>,
  depth: number,
): string[] {
  const out: string[] = [];
  for (const n of [...nodes].sort(readingOrder)) {
    if (n.type !== 'group') {
      const text = cardText(n);
      if (text !== '') out.push(text);
      continue;
    }
    const inner = paragraphs(children.get(n) ?? [], children, depth + 1);
    // An empty group says nothing, its label alone no more than a heading alone does.
    if (inner.length === 0) continue;
    const label = n.label?.replace(/\s+/g, ' ').trim();
    if (label) out.push(`${'#'.repeat(Math.min(depth + 2, 6))} ${label}`);
    out.push(...inner);
  }
  return out;
}

/**
 * The edges that say something, as "A → B: label" lines. An edge without a label is left out: the
 * arrows of a mind map mostly draw what the cards' places already say, and a line naming two cards
 * and no relation would be read as a statement of its own.
 */
function edgeLines(nodes: CanvasNode[], edges: CanvasEdge[]): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return edges.flatMap((e) => {
    const [from, to, label] = [
      byId.get(e.fromNode),
      byId.get(e.toNode),
      e.label?.replace(/\s+/g, ' ').trim(),
    ];
    return from && to && label ? [`${cardName(from)} → ${cardName(to)}: ${label}`] : [];
  });
}

/**
 * A canvas's words as a note's text: its cards in reading order (canvas groups as headings), a text
 * card's Markdown as written, a file card as a link to it, a link card as its URL, then its labelled
 * edges. '' when it holds none. Throws, saying why, when TEXT is not a JSON Canvas.
 */
export function canvasText(text: string): string {
  if (text.trim() === '') return '';
  const { nodes, edges } = parseCanvas(text);
  const parent = groupOf(nodes);
  const children = new Map<CanvasNode | null, CanvasNode[]>();
  for (const n of nodes) {
    const p = parent.get(n) ?? null;
    const siblings = children.get(p);
    if (siblings) siblings.push(n);
    else children.set(p, [n]);
  }
  const body = paragraphs(children.get(null) ?? [], children, 0);
  if (body.length === 0) return '';
  const links = edgeLines(nodes, edges);
  return [...body, ...(links.length > 0 ? [links.join('\n')] : [])].join('\n\n');
}
