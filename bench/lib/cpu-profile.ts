/**
 * Summaries of V8 CPU profiles (`node --cpu-prof`, or the inspector in-process) for the notes of unmet
 * targets: the functions with the most self time, named by file and line so a fix can be routed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; hitCount?: number }[];
}

export interface HotFunction {
  readonly name: string;
  readonly location: string;
  readonly selfPercent: number;
}

export function hottestFunctions(profiles: readonly CpuProfile[], count = 12): HotFunction[] {
  const selfHits = new Map<string, { name: string; location: string; hits: number }>();
  let total = 0;
  for (const profile of profiles) {
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (hits === 0) continue;
      total += hits;
      const name = node.callFrame.functionName || '(anonymous)';
      const location = shortLocation(node.callFrame);
      const key = `${name}@${location}`;
      const entry = selfHits.get(key) ?? { name, location, hits: 0 };
      entry.hits += hits;
      selfHits.set(key, entry);
    }
  }
  return [...selfHits.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, count)
    .map(({ name, location, hits }) => ({ name, location, selfPercent: (100 * hits) / total }));
}

function shortLocation({ url, lineNumber }: CallFrame): string {
  // Code without a script: V8 internals, or functions compiled at run time with new Function.
  if (url === '') return '';
  const path = url.replace(/^file:\/\//, '').replace(`${PACKAGE_ROOT}/`, '');
  const fromPackage = path.replace(/^.*node_modules\//, '');
  // V8 line numbers are 0-based.
  return `${fromPackage}:${lineNumber + 1}`;
}

/** Every profile a `node --cpu-prof --cpu-prof-dir DIR` process wrote, one per thread. */
export async function readProfiles(dir: string): Promise<CpuProfile[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as CpuProfile));
}

/** Profiles a synchronous workload in this process. */
export async function profileInProcess(work: () => void): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    work();
    const { profile } = await session.post('Profiler.stop');
    return profile as unknown as CpuProfile;
  } finally {
    session.disconnect();
  }
}

export function formatHotFunctions(title: string, hot: readonly HotFunction[]): string {
  const lines = hot.map(
    (f) => `  - ${f.selfPercent.toFixed(1)}% ${f.name} (${f.location || 'native or generated'})`,
  );
  return `${title} — CPU profile, self time:\n${lines.join('\n')}`;
}
