import { useEffect, useRef, useState } from 'react';
import './locale-guard.ts';
import uPlot from 'uplot';

export interface Series {
  label: string;
  color: string;
  values: number[];
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** Counts over time (x in seconds) drawn by uPlot on a canvas, sized to its container and redrawn when the colour scheme changes. */
export function LineChart({ x, series, xLabel, height = 240 }: { x: number[]; series: Series[]; xLabel: (x: number) => string; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const [scheme, setScheme] = useState(0);
  useEffect(() => {
    const media = matchMedia('(prefers-color-scheme: dark)');
    const changed = () => setScheme((n) => n + 1);
    media.addEventListener('change', changed);
    return () => media.removeEventListener('change', changed);
  }, []);
  useEffect(() => {
    const el = box.current;
    if (!el || !x.length) return;
    const text = cssVar('--muted');
    const grid = cssVar('--line');
    const pad = x.length > 1 ? (x[1] - x[0]) / 2 : 3.5 * 86400;
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height,
        legend: { show: false },
        cursor: { show: false },
        scales: {
          // Half a bucket either side, so a single bucket still has room.
          x: { time: true, range: () => [x[0] - pad, x[x.length - 1] + pad] },
          y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
        },
        axes: [
          {
            ...axis,
            // One tick per bucket (thinned to fit), labelled by the caller: uPlot's own time ticks would show hours.
            splits: (u) => {
              const every = Math.ceil(x.length / Math.max(1, Math.floor(u.width / 90)));
              return x.filter((_, i) => i % every === 0);
            },
            values: (_u, ticks) => ticks.map(xLabel),
          },
          { ...axis, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], values: (_u, ticks) => ticks.map((t) => String(t)) }],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 7, fill: s.color } }))],
      },
      [x, ...series.map((s) => s.values)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, xLabel, height, scheme]);
  return <div ref={box} className="line-chart" aria-hidden="true" />;
}
