// A local OpenID Connect provider for tests (npm oidc-provider with its
// development login and consent pages: any login name, any password).
// Usage: node e2e/infra/oidc-provider.mjs <port> <client_id> <client_secret> <redirect_uri>
// (port 0: any free port). Prints {"listening": port, "issuer": "..."} on stdout once it accepts
// connections.
// The account `<login>` has e-mail `<login>@example.com`, verified.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const [portArg, clientId, clientSecret, redirectUri] = process.argv.slice(2);
// The issuer names the port, so the socket is bound first (port 0 then has one) and the
// provider built on it after.
let handle = (request, response) => {
  response.writeHead(503).end();
};
const server = createServer((request, response) => handle(request, response));
await new Promise((done) => server.listen(Number(portArg), '127.0.0.1', done));
const port = server.address().port;
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id, email: `${id}@example.com`, email_verified: true, name: id };
      },
    };
  },
});
// Plain http on loopback: the tests' issuer.
provider.proxy = false;
handle = provider.callback();
process.stdout.write(`${JSON.stringify({ listening: port, issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
