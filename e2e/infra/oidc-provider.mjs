// A local OpenID Connect provider for tests (npm oidc-provider with its
// development login and consent pages: any login name, any password).
// Usage: node e2e/infra/oidc-provider.mjs <port> <client_id> <client_secret> <redirect_uri>
// Prints {"listening": port, "issuer": "..."} on stdout once it accepts connections.
// The account `<login>` has e-mail `<login>@example.com`, verified.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const [port, clientId, clientSecret, redirectUri] = process.argv.slice(2);
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
const server = createServer(provider.callback());
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ listening: Number(port), issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
