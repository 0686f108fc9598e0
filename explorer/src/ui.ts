// Pieces several pages share: chain badges, sparklines and bar charts (inline SVG).
import type { Chain } from './chains.js';
import { h, link } from './dom.js';

/** A link to an ICM message's page, its ID shortened (whole on hover). */
export const icmLink = (id: string) => link(`/icm/${id}`, h('span', { class: 'mono', title: id }, `${id.slice(0, 12)}…`));

export const chainBadge = (c: Chain) => link(`/chain/${c.key}`, h('span', { class: `chain-badge k-${c.kind}` }, c.kind === 'L1' ? c.name : c.kind));

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** Tx counts of the latest blocks, oldest on the left. */
export function sparkline(values: number[], label: string): HTMLElement {
  const w = 120;
  const hgt = 28;
  const max = Math.max(1, ...values);
  const root = svg('svg', { viewBox: `0 0 ${w} ${hgt}`, width: w, height: hgt, class: 'spark', role: 'img', 'aria-label': label });
  const bw = w / Math.max(values.length, 1);
  values.forEach((v, i) => {
    const bh = v === 0 ? 1 : Math.max(2, (v / max) * (hgt - 2));
    root.appendChild(svg('rect', { x: i * bw + 0.5, y: hgt - bh, width: Math.max(1, bw - 1), height: bh, rx: 1 }));
  });
  const wrap = h('span', { class: 'spark-wrap', title: label });
  wrap.appendChild(root);
  return wrap;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** A bar chart of (time, value) points, oldest on the left, with the extremes labelled. */
export function barChart(points: Array<{ t: number; v: number }>, title: string, fmtTime: (t: number) => string): HTMLElement {
  const w = 480;
  const hgt = 140;
  const pad = 24;
  const card = h('figure', { class: 'chart' }, h('figcaption', null, title));
  if (points.length === 0) {
    card.appendChild(h('p', { class: 'muted empty' }, 'No data yet.'));
    return card;
  }
  const max = Math.max(1, ...points.map((p) => p.v));
  const root = svg('svg', { viewBox: `0 0 ${w} ${hgt + pad}`, class: 'bars', role: 'img', 'aria-label': title });
  const bw = (w - 40) / points.length;
  points.forEach((p, i) => {
    const bh = Math.max(1, (p.v / max) * hgt);
    const rect = svg('rect', { x: 40 + i * bw + 1, y: hgt - bh, width: Math.max(1, bw - 2), height: bh, rx: 2 });
    const tip = svg('title', {});
    tip.textContent = `${fmtTime(p.t)}: ${p.v.toLocaleString()}`;
    rect.appendChild(tip);
    root.appendChild(rect);
  });
  const text = (x: number, y: number, s: string, anchor = 'start') => {
    const el = svg('text', { x, y, 'text-anchor': anchor });
    el.textContent = s;
    root.appendChild(el);
  };
  text(36, 10, compact.format(max), 'end');
  text(36, hgt, '0', 'end');
  text(40, hgt + 16, fmtTime(points[0]!.t));
  if (points.length > 1) text(w, hgt + 16, fmtTime(points[points.length - 1]!.t), 'end');
  root.appendChild(svg('line', { x1: 40, y1: hgt + 0.5, x2: w, y2: hgt + 0.5, class: 'axis' }));
  card.appendChild(root);
  return card;
}
