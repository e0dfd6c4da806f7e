/**
 * A Remnawave panel behind TLS, in a process of its own (so the load generator and the app do not slow its
 * answers, nor it theirs): the fake Remnawave, its public subscription domain unresolvable, behind a TLS
 * terminator (as nginx's stream module would be) with a self-signed certificate made by openssl, answering each
 * request after BENCH_PANEL_DELAY ms (a real panel's work). Reports `{ port, url, apiToken, subscriptionUrls }`
 * over IPC once listening, with four users made through the TLS address.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import { createRemnawaveDriver } from '../../src/panels/remnawave.js';
import { startFakeRemnawave } from '../../test/fake-panels/remnawave.js';

const SQUAD = '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f';

const dir = mkdtempSync(join(tmpdir(), 'vpn-tls-panel-'));
const keyFile = join(dir, 'key.pem');
const certFile = join(dir, 'cert.pem');
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ],
  { stdio: 'ignore' },
);

const panel = await startFakeRemnawave({ subPublicDomain: 'sub.bench-unresolvable.invalid' });
const upstreamPort = Number(new URL(panel.url).port);
const front = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (socket) => {
  const upstream = connect(upstreamPort, '127.0.0.1');
  // As a proxy does: each piece passed on at once (Nagle would hold small writes back for an ACK).
  socket.setNoDelay(true);
  upstream.setNoDelay(true);
  socket.pipe(upstream).pipe(socket);
  const end = () => {
    socket.destroy();
    upstream.destroy();
  };
  socket.on('error', end);
  upstream.on('error', end);
});
await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
const port = (front.address() as AddressInfo).port;
const url = `https://127.0.0.1:${port}`;

// The users, made through the TLS address as the storefront would (the certificate is this process's own).
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
const driver = createRemnawaveDriver({ url, username: '', password: '', apiToken: panel.apiToken, serviceId: SQUAD });
const expiresAt = new Date(Date.now() + 30 * 86_400_000);
const users = await Promise.all(
  Array.from({ length: 4 }, (_, i) => driver.createAccount({ username: `user_tls${i}`, dataLimitBytes: 50 * 1024 ** 3, expiresAt, note: 'bench' })),
);
panel.faults.delayMs = Number(process.env.BENCH_PANEL_DELAY ?? 100);

process.send!({ port, url, apiToken: panel.apiToken, subscriptionUrls: users.map((user) => user.subscriptionUrl) });
process.once('SIGTERM', () => {
  front.close();
  void panel.close().finally(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
