import { open } from 'node:fs/promises';

/** A rename is durable only once the directory entry is synced. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
