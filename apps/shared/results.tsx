// The adapter examples' buttons: each runs an async action of the chain library and shows what
// came of it, the value or the error, in an <output> the e2e specs read.
import { useState } from 'react';

type Result = { value?: string; error?: string };

/**
 * `run(key, action)` starts `action` and `show(key)` is its outcome, in an `<output>` whose test id
 * is `${prefix}-${key}`; `describe` words an error.
 */
export function useActionResults(prefix: string, describe: (error: unknown) => string) {
  const [results, setResults] = useState<Record<string, Result>>({});
  const run = (key: string, action: () => Promise<string>) => {
    setResults((all) => ({ ...all, [key]: {} }));
    action().then(
      (value) => setResults((all) => ({ ...all, [key]: { value } })),
      (error: unknown) => setResults((all) => ({ ...all, [key]: { error: describe(error) } })),
    );
  };
  const show = (key: string) => <output data-testid={`${prefix}-${key}`}>{results[key]?.value ?? results[key]?.error ?? ''}</output>;
  return { run, show };
}
