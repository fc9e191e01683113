/**
 * Figure 1's evaluation (a) counted in machine instructions per profile, per compiled function, under
 * valgrind's callgrind: a profile of what limits (a) that does not move with the machine's speed, which on
 * the VMs this project is measured on swings by a third from one minute to the next. Instruction counts
 * are not time (a cache miss or a mispredicted branch costs many), but two builds' counts differ only where
 * their code does, to a few tenths of a percent between runs.
 *
 * The subject (this script with `--subject`) warms the engine up uninstrumented, then evaluates the
 * profiles `--passes` times while callgrind counts; V8's map of its compiled code (`--perf-basic-prof`)
 * names the functions. Needs valgrind (Debian package `valgrind`); not part of `npm run bench`.
 *
 * Usage: node dist/bench/stack/engine-instructions.js [--profiles N] [--passes N] [--top N] [--smoke]
 * (`--smoke`: 200 profiles, one pass, a short warm-up; CI runs it so that the tool cannot rot).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { checkRequest, type ValidRequest } from '../../src/contract/validate.js';
import { loadEngine } from '../../src/runtime/load-engine.js';
import { codeNames } from '../lib/code-map.js';
import { readRequestBodies } from '../lib/households.js';
import { generateSample } from '../lib/outlay.js';
import { runChecked } from '../lib/process.js';

const { values } = parseArgs({
  options: {
    subject: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    profiles: { type: 'string' },
    passes: { type: 'string' },
    top: { type: 'string', default: '14' },
  },
  strict: true,
});
const smoke = values.smoke === true;
const sizes = {
  profiles: Number(values.profiles ?? (smoke ? 200 : 5000)),
  passes: Number(values.passes ?? (smoke ? 1 : 4)),
  // Warm-up passes per round, of three.
  warmup: smoke ? 2 : 20,
};

if (values.subject !== undefined) await runSubject(values.subject, sizes.passes, sizes.warmup);
else await profile(sizes.profiles, sizes.passes, Number(values.top));

/**
 * Evaluates every profile of `csvPath` `passes` times between "ready" and "done" on stdout; the
 * controller turns the counting on after "ready" and answers with a line on stdin.
 */
async function runSubject(csvPath: string, passes: number, warmup: number): Promise<void> {
  const engine = await loadEngine();
  const requests = (await readRequestBodies(csvPath)).flatMap((body): ValidRequest[] => {
    const request = checkRequest(body);
    return request === undefined || !engine.household(body).ok ? [] : [request];
  });
  const sink = new Float64Array(1);
  const run = (times: number) => {
    for (let p = 0; p < times; p++) {
      for (let i = 0; i < requests.length; i++)
        sink[0]! += engine.householdFiguresOf(requests[i]!).budget[0]!;
    }
  };
  // Pauses between warm-up passes let the optimizing compiler, a background thread that valgrind runs in
  // turn with this one, install its code before the count starts.
  for (let round = 0; round < 3; round++) {
    run(warmup);
    await sleep(smoke ? 100 : 2000);
  }
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  process.stdout.write('ready\n');
  await lines.next();
  run(passes);
  process.stdout.write(`done ${passes * requests.length} ${sink[0]! > 0}\n`);
  await lines.next();
  process.exit(0);
}

async function profile(profiles: number, passes: number, top: number): Promise<void> {
  for (const tool of ['valgrind', 'callgrind_control']) {
    const found = await runChecked('sh', ['-c', `command -v ${tool} || true`]);
    if (found.stdout.trim() === '') throw new Error(`${tool} is not installed (Debian package valgrind)`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'outlay-bench-instructions-'));
  try {
    const csv = join(dir, 'households.csv');
    await generateSample(profiles, csv, 'csv');
    const out = join(dir, 'callgrind.out');
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--instr-atstart=no',
        '--dump-instr=yes',
        // V8 writes and rewrites its compiled code: valgrind must watch for that outside loaded files.
        '--smc-check=all-non-file',
        `--callgrind-out-file=${out}`,
        process.execPath,
        '--perf-basic-prof',
        process.argv[1]!,
        '--subject',
        csv,
        '--passes',
        String(passes),
        ...(smoke ? ['--smoke'] : []),
      ],
      // In the scratch directory: --perf-basic-prof also writes V8's isolate log to the working directory.
      { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    // Valgrind's own report goes to stderr: shown only if the run fails.
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let evaluations = 0;
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line === 'ready') {
        await runChecked('callgrind_control', ['-i', 'on', String(child.pid)]);
        child.stdin!.write('go\n');
      } else if (line.startsWith('done ')) {
        await runChecked('callgrind_control', ['-i', 'off', String(child.pid)]);
        evaluations = Number(line.split(' ')[1]);
        child.stdin!.write('end\n');
      }
    }
    if ((await exited) !== 0 || !(evaluations > 0)) {
      throw new Error(`the subject under valgrind failed:\n${stderr.slice(-4000)}`);
    }
    const perfMap = `/tmp/perf-${child.pid}.map`;
    try {
      const counts = instructionsByFunction(await readFile(out, 'utf8'), await readFile(perfMap, 'utf8'));
      process.stdout.write(report(counts, evaluations, top));
    } finally {
      await rm(perfMap, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Instructions per function: callgrind's self cost per instruction address (`--dump-instr=yes`, with its
 * relative-address compression), each address named by V8's code map, or by callgrind's function name
 * outside compiled JavaScript (builtins, the C++ runtime, libm).
 */
function instructionsByFunction(callgrind: string, perfMap: string): Map<string, number> {
  const nameAt = codeNames(perfMap);
  const counts = new Map<string, number>();
  let address = 0;
  let callLine = false;
  // Callgrind names a function once, "fn=(id) name" or "cfn=(id) name", and by its id alone after that.
  const callgrindNames = new Map<string, string>();
  let callgrindName = '';
  for (const line of callgrind.split('\n')) {
    const fn = /^(c?)fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (fn !== null) {
      if (fn[3] !== undefined) callgrindNames.set(fn[2]!, fn[3]);
      if (fn[1] === '') callgrindName = callgrindNames.get(fn[2]!) ?? 'unknown';
    }
    if (line.startsWith('calls=')) callLine = true;
    const cost = /^(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)/.exec(line);
    if (cost === null) continue;
    const position = cost[1]!;
    if (position.startsWith('0x')) address = Number.parseInt(position, 16);
    else if (position !== '*') address += Number.parseInt(position, 10);
    // The line after `calls=` is the callee's inclusive cost, already counted where it was spent.
    if (callLine) {
      callLine = false;
      continue;
    }
    const name = nameAt(address) ?? `${callgrindName} (native)`;
    counts.set(name, (counts.get(name) ?? 0) + Number(cost[2]));
  }
  return counts;
}

function report(counts: Map<string, number>, evaluations: number, top: number): string {
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  const rows = [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, count]) => {
      // V8 names compiled code "JS:*name file:///…/dist/src/x.js:line:column"; the source path says enough.
      const shown = name.replace(/file:\/\/\/\S*?\/dist\//, '').replace(/^JS:\*/, '');
      return `| ${shown} | ${(count / evaluations).toFixed(0)} | ${((100 * count) / total).toFixed(1)} % |`;
    });
  return [
    `${evaluations.toLocaleString('en-US')} evaluations (a), ${(total / evaluations).toFixed(0)} instructions each`,
    '',
    '| function | instructions per evaluation | share |',
    '| --- | ---: | ---: |',
    ...rows,
    '',
  ].join('\n');
}
