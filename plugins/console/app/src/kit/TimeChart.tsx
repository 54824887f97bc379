import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  values: Array<number | null>;
}

interface Props {
  title: string;
  /** Unix seconds of each sample. */
  times: number[];
  series: Series[];
  unit?: string;
}

const PALETTE = ['--chart-1', '--chart-2', '--chart-3', '--chart-4'];

function token(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/**
 * A uPlot time-series chart. Canvas charts say nothing to a screen reader, so the figure carries
 * a text summary of the latest values (the page's tables hold the numbers too).
 */
export function TimeChart({ title, times, series, unit = '' }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const shape = series.map((s) => s.label).join('|');

  // Rebuilt only when the set of series changes; new samples go through setData below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: times and series reach the chart through setData
  useEffect(() => {
    const el = host.current;
    if (!el) return undefined;
    const text = token('--text');
    const grid = token('--border');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const instance = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 180,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        axes: [axis, { ...axis, values: (_u, ticks) => ticks.map((t) => `${t}${unit}`) }],
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: token(PALETTE[i % PALETTE.length] as string),
            width: 2,
            spanGaps: true,
          })),
        ],
      },
      [times, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    plot.current = instance;
    const resize = new ResizeObserver(() => instance.setSize({ width: Math.max(280, el.clientWidth), height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      instance.destroy();
      plot.current = null;
    };
  }, [shape, unit]);

  useEffect(() => {
    plot.current?.setData([times, ...series.map((s) => s.values)] as uPlot.AlignedData);
  }, [times, series]);

  const latest = series.map((s) => `${s.label}: ${s.values.at(-1) ?? 'no data'}${unit}`).join('; ');
  return (
    <figure className="card chart-figure">
      <figcaption>
        <h3>{title}</h3>
      </figcaption>
      <div ref={host} className="chart" role="img" aria-label={`${title}. Latest: ${latest || 'no data yet'}.`} />
    </figure>
  );
}
