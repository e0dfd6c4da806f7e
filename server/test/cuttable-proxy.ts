import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A TCP hop in front of a server (PostgreSQL, Redis) that a test can cut and restore: to the app, that server stopped and started. */
export interface CuttableProxy {
  port: number;
  /** New connections are refused and open ones reset, as when the server behind stops. */
  cut(): Promise<void>;
  /** Takes connections again, on the same port. */
  restore(): Promise<void>;
  /** Connections stay open but nothing passes either way (the server hung); `thaw` lets what was held through. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let frozen = false;
  /** What was sent while frozen, with where it goes. */
  let held: Array<{ to: Socket; data: Buffer }> = [];
  const forward = (from: Socket, to: Socket) =>
    from.on('data', (data: Buffer) => {
      if (frozen) held.push({ to, data });
      else to.write(data);
    });
  const listen = async () => {
    const next = createServer((client) => {
      const upstream = connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      forward(client, upstream);
      forward(upstream, client);
    });
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
    port = (next.address() as AddressInfo).port;
    server = next;
  };
  const cut = async () => {
    const current = server;
    server = undefined;
    if (!current) return;
    await new Promise<void>((resolve) => {
      current.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  };
  await listen();
  return {
    port,
    cut,
    restore: listen,
    close: cut,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const { to, data } of held) if (!to.destroyed) to.write(data);
      held = [];
    },
  };
}

/** A server that takes TCP connections and never answers on them (a service hung, or a black hole on the way). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A port nothing listens on: connections to it are refused. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
