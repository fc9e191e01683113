/**
 * Locations of the files Outlay ships (model artifact, geography extracts, sample data). Resolved from
 * the package root so the same code works from TypeScript sources (vitest) and from compiled dist/.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
export const DATA_DIR = join(PACKAGE_ROOT, 'data');
