import fs from 'node:fs';

/**
 * `node bench/profile-summary.ts <file.cpuprofile> [top] [from-end to-end]`: where a `--cpu-prof`
 * run spent its time, as self time per package (or project folder) and the heaviest functions.
 * With `from-end to-end` (seconds before the profile's end) only that window counts: e.g. `27 9`
 * is the evidence list and search phases at the end of a default bench run.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, fromEnd, toEnd] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const top = Number(topArg ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
const at: number[] = [];
profile.samples.forEach((_, i) => at.push((at[i - 1] ?? 0) + (profile.timeDeltas[i] ?? 0)));
const end = at[at.length - 1] ?? 0;
const inWindow = (t: number) => fromEnd === undefined || (t >= end - Number(fromEnd) * 1e6 && t <= end - Number(toEnd ?? 0) * 1e6);
profile.samples.forEach((id, i) => {
  if (inWindow(at[i])) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url: string): string {
  if (!url) return '(native/gc/idle)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url.replace(/\/.*$/, '');
  const own = /\/work\/[^/]+\/([^/]+)\//.exec(url) ?? /\/([^/]+)\/[^/]+$/.exec(url);
  return own ? `./${own[1]}` : url;
}

const areas = new Map<string, number>();
const fns = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  const a = n.callFrame.functionName === '(idle)' ? '(idle)' : area(n.callFrame.url);
  areas.set(a, (areas.get(a) ?? 0) + us);
  const f = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '')}:${n.callFrame.lineNumber + 1}`;
  fns.set(f, (fns.get(f) ?? 0) + us);
}
const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
console.log(`total ${(total / 1e6).toFixed(1)} s sampled\n\nself time by area:`);
for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${a}`);
console.log('\nheaviest functions (self):');
for (const [f, us] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
