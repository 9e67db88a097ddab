// How a bar chart (components/bar-chart.tsx) lays out its rows for the width it is drawn at: plain
// numbers, apart from React, so the unit tests read it as they read the rest.

/** Where each part of a row goes, in the chart's own pixels (drawn at 1:1, so its text stays 12 px). */
export interface BarLayout {
  width: number;
  /** Labels on a line of their own, above their bar: a narrow chart has no room beside it. */
  stacked: boolean;
  labelW: number;
  barX: number;
  barW: number;
  rowH: number;
  /** From a row's top: the label's baseline, the bar's top and height, the value's baseline. */
  labelY: number;
  barY: number;
  barH: number;
  valueY: number;
}

/** Narrower than this, a label beside its bar gets too few characters to tell rows apart. */
export const stackBelowPx = 560;

/**
 * The chart laid out for the width it is given. It was one 820-unit picture scaled to fit, so at 400 px
 * its 12 px text was drawn at about 5 px; now the picture is as wide as its box, and below
 * `stackBelowPx` each label takes its own line above its bar.
 */
export function barLayout(width: number): BarLayout {
  const w = Math.max(200, Math.round(width));
  if (w < stackBelowPx) {
    return {
      width: w,
      stacked: true,
      labelW: w,
      barX: 0,
      barW: Math.round(w * 0.55),
      rowH: 42,
      labelY: 14,
      barY: 20,
      barH: 16,
      valueY: 33,
    };
  }
  // Labels are what tell the rows apart (three phone numbers of one person): they get the room.
  const labelW = Math.min(320, Math.round(w * 0.39));
  const barW = Math.min(240, Math.round((w - labelW) * 0.5));
  return {
    width: w,
    stacked: false,
    labelW,
    barX: labelW,
    barW,
    rowH: 26,
    labelY: 17,
    barY: 4,
    barH: 18,
    valueY: 17,
  };
}
