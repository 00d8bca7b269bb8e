// Free loopback ports for a `latch serve --dev` that other processes must name before it starts
// (the e2e stack, `make bench-ui`). Everything else binds port 0 and reports what it got; latch
// cannot here, since the devnet's contracts and the OIDC client carry its URL and it needs theirs.
import { createServer } from 'node:net';

/** Listens on `port` of loopback (0: any free one); resolves to the server, or null when taken. */
function hold(port) {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(null));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => done(server));
  });
}

const close = (server) => new Promise((done) => server.close(() => done()));

/**
 * Holds a free port P and P + 2: latch's API and, under `--dev`, its wallet frame (where the demo
 * looks for it). While held, no other port-0 bind (this run's or another's) gets them; `release`
 * lets go just before latch binds them, so only that moment is open to a race.
 * @returns {Promise<{ port: number, release: () => Promise<void> }>}
 */
export async function holdServerPorts() {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const api = await hold(0);
    if (!api) continue;
    const { port } = api.address();
    const frame = port + 2 <= 65_535 ? await hold(port + 2) : null;
    if (frame) return { port, release: async () => void (await Promise.all([close(api), close(frame)])) };
    await close(api);
  }
  throw new Error('no free pair of loopback ports P and P + 2 for latch');
}
