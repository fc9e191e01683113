/**
 * The Node.js that the published figures are measured on: the one the product ships on, the major of the
 * container image (deploy/Dockerfile, `FROM node:<major>-slim`), which `npm run bench` runs with
 * `npx node@<major>`. Node's majors differ in speed by more than most changes to the code: on the same
 * machine state, the engine's evaluation took 0.65 of Node 20's CPU on Node 22 (bench/NOTES.md),
 * so a figure measured on another major says little about the runtime users deploy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';

export const DOCKERFILE = join(PACKAGE_ROOT, 'deploy', 'Dockerfile');

/** The Node major of the image's stages, which must all name the same one. */
export function shippedNodeMajor(dockerfile: string = readFileSync(DOCKERFILE, 'utf8')): number {
  const majors = [...dockerfile.matchAll(/^FROM\s+node:(\d+)\S*/gm)].map((match) => Number(match[1]));
  if (majors.length === 0) throw new Error('deploy/Dockerfile: no `FROM node:<major>` stage');
  if (new Set(majors).size > 1) {
    throw new Error(`deploy/Dockerfile: its stages name different Node majors (${majors.join(', ')})`);
  }
  return majors[0]!;
}

/** The major of a version such as process.version ("v22.23.3"); NaN for anything else. */
export function nodeMajor(version: string): number {
  const match = /^v?(\d+)\.\d+\.\d+/.exec(version);
  return match === null ? Number.NaN : Number(match[1]);
}

/**
 * Why results cannot go into the committed docs/benchmarks.md: one line for each figure that was not
 * measured on the shipped major (or whose result does not say what it ran on); empty when they all were.
 */
export function publishedRuntimeProblems(
  results: readonly { readonly figure: string; readonly node?: string | undefined }[],
  shippedMajor: number,
): string[] {
  return results.flatMap(({ figure, node }) => {
    if (node === undefined) return [`${figure}: the result does not record the Node.js it ran on`];
    return nodeMajor(node) === shippedMajor
      ? []
      : [`${figure}: measured on Node ${node}, not on the image's Node ${shippedMajor}`];
  });
}
