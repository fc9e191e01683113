/** Polls `check` until it passes, for changes a store picks up in the background; the timeout only guards
 * against a change that is never noticed (a busy machine may take many seconds). */
export async function eventually(check: () => void, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
