import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent: let the OS place the window (first start, or the saved place is on no screen now). */
  bounds: Partial<Pick<Rect, 'x' | 'y'>> & Pick<Rect, 'width' | 'height'>;
  maximized: boolean;
}

export const defaultWindowSize = { width: 1200, height: 820 };
export const minWindowSize = { width: 720, height: 480 };

/** How much of the window's top strip must be on a screen for the saved place to be used: enough to grab it. */
const grabbable = { width: 120, height: 40 };

function isRect(v: unknown): v is Rect {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => Number.isFinite(r[k]));
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * The window's size and place from what was saved, checked against the screens there are now: a size
 * is kept within the largest screen and above the minimum; a place is kept only if the window's title
 * strip is on one of them (a monitor unplugged since must not leave the window out of reach).
 */
export function restoredWindowState(saved: unknown, workAreas: readonly Rect[]): WindowState {
  const fallback: WindowState = { bounds: { ...defaultWindowSize }, maximized: false };
  if (typeof saved !== 'object' || saved === null) return fallback;
  const s = saved as { bounds?: unknown; maximized?: unknown };
  if (!isRect(s.bounds)) return fallback;
  const maxWidth = Math.max(minWindowSize.width, ...workAreas.map((a) => a.width));
  const maxHeight = Math.max(minWindowSize.height, ...workAreas.map((a) => a.height));
  const width = Math.round(Math.min(Math.max(s.bounds.width, minWindowSize.width), maxWidth));
  const height = Math.round(Math.min(Math.max(s.bounds.height, minWindowSize.height), maxHeight));
  const titleStrip: Rect = { x: s.bounds.x, y: s.bounds.y, width, height: grabbable.height };
  const reachable = workAreas.some((area) => {
    const o = overlap(titleStrip, area);
    return o.width >= Math.min(grabbable.width, width) && o.height >= grabbable.height;
  });
  return {
    bounds: reachable
      ? { x: Math.round(s.bounds.x), y: Math.round(s.bounds.y), width, height }
      : { width, height },
    maximized: s.maximized === true,
  };
}

export function readWindowState(file: string, workAreas: readonly Rect[]): WindowState {
  let saved: unknown = null;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // First start, or a file that is not ours to trust: the default size, placed by the OS.
  }
  return restoredWindowState(saved, workAreas);
}

/** Saves the window's normal (unmaximized) bounds and whether it was maximized; a crash mid-write leaves the old file. */
export function writeWindowState(file: string, state: { bounds: Rect; maximized: boolean }): void {
  mkdirSync(dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, JSON.stringify({ bounds: state.bounds, maximized: state.maximized }) + '\n');
  renameSync(draft, file);
}
