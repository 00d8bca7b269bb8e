/**
 * `make` run at the first call and its promise shared by every later one, until it fails: the
 * call after a failure (say, a module fetch while offline) runs `make` again. For what is loaded
 * once and may be asked for early (preloading) and late (use) alike.
 */
export function onceUntilFailure<T>(make: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | undefined;
  return () => {
    current ??= make().catch((error: unknown) => {
      current = undefined;
      throw error;
    });
    return current;
  };
}
