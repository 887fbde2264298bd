// A real OpenID provider (oidc-provider) for mcp/tests/oidc.rs, on 127.0.0.1.
//
//   node provider.mjs
//
// Prints `listening on http://127.0.0.1:PORT` on stderr once it serves. Issuer: that URL.
// Client-credentials clients, one per signing algorithm (`client-rs256`, `client-ps256`,
// `client-es256`, `client-eddsa`, secret `secret-<alg>`), issue JWT access tokens for the
// resource `https://tools.test/mcp` (audience the same) with the requested scopes;
// `client-opaque` gets opaque tokens, which `client-tools` (the resource server) checks at
// `/token/introspection` (RFC 7662).
//
// Key rotation, as an operator redeploys the provider with a new key list, without
// restarting this process (the keystore is the provider's, so the provider is rebuilt;
// clients and the issuer stay):
//   POST /admin/keys/add?alg=ES256  -> {"kid": ...}: a new key, first, so it signs
//   POST /admin/keys/remove?kid=K   -> {"kids": [...]}: the key is gone from the JWKS
//   GET  /admin/keys                -> {"kids": [...], "jwks_fetches": N}
// Nothing here is for production: the keys are generated at start.

import * as crypto from 'node:crypto';
import * as http from 'node:http';

import Provider from 'oidc-provider';

const AUDIENCE = 'https://tools.test/mcp';
const SCOPES = 'openid weather.read notes.write mcp:weather.read';
const ALGS = { rs256: 'RS256', ps256: 'PS256', es256: 'ES256', eddsa: 'EdDSA' };

let counter = 0;
function newKey(alg) {
  let pair;
  if (alg === 'RS256' || alg === 'PS256') {
    pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  } else if (alg === 'ES256') {
    pair = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  } else if (alg === 'EdDSA') {
    pair = crypto.generateKeyPairSync('ed25519');
  } else {
    throw new Error(`no key for ${alg}`);
  }
  counter += 1;
  const jwk = pair.privateKey.export({ format: 'jwk' });
  return { ...jwk, alg, use: 'sig', kid: `${alg.toLowerCase()}-${counter}` };
}

let keys = Object.values(ALGS).map(newKey);

const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  const issuer = `http://127.0.0.1:${port}`;

  const configuration = () => ({
    clients: [...Object.keys(ALGS), 'opaque', 'tools'].map((name) => ({
      client_id: `client-${name}`,
      client_secret: `secret-${name}`,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope: SCOPES,
    })),
    jwks: { keys },
    ttl: { ClientCredentials: 600 },
    scopes: SCOPES.split(' '),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => AUDIENCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, _resource, client) => (client.clientId === 'client-opaque'
          ? {
            scope: SCOPES, audience: AUDIENCE, accessTokenTTL: 600, accessTokenFormat: 'opaque',
          }
          : {
            scope: SCOPES,
            audience: AUDIENCE,
            accessTokenTTL: 600,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: ALGS[client.clientId.replace('client-', '')] } },
          }),
      },
    },
  });

  let provider = new Provider(issuer, configuration());
  provider.proxy = false;
  const rebuild = () => {
    provider = new Provider(issuer, configuration());
  };
  const kids = () => keys.map((k) => k.kid);
  const reply = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  let jwksFetches = 0;
  server.on('request', (req, res) => {
    const url = new URL(req.url, issuer);
    if (url.pathname === '/jwks') jwksFetches += 1;
    if (url.pathname.startsWith('/admin/keys')) {
      try {
        if (req.method === 'POST' && url.pathname === '/admin/keys/add') {
          const key = newKey(url.searchParams.get('alg') ?? 'RS256');
          keys = [key, ...keys];
          rebuild();
          return reply(res, 200, { kid: key.kid, kids: kids() });
        }
        if (req.method === 'POST' && url.pathname === '/admin/keys/remove') {
          const kid = url.searchParams.get('kid');
          keys = keys.filter((k) => k.kid !== kid);
          rebuild();
          return reply(res, 200, { kids: kids() });
        }
        return reply(res, 200, { kids: kids(), jwks_fetches: jwksFetches });
      } catch (e) {
        return reply(res, 500, { error: String(e) });
      }
    }
    return provider.callback()(req, res);
  });
  process.stderr.write(`listening on ${issuer}\n`);
});

// Ends with the test that started it (its stdin closes).
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
