/**
 * The main process's side of the bridge: one `ipcMain.handle` per channel of `BRIDGE_CHANNELS`.
 * Every call is checked before anything happens: it must come from our window's main frame showing
 * our renderer, and its arguments (unknown input) must match the contract. Anything else is refused
 * with an error that says why, and nothing is done.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { BRIDGE_CHANNELS } from '../../shared/platform-bridge.js';
import { isAllowedApiPath, MAX_API_PATH_LENGTH } from './api-paths.js';
import type { BridgeHandlers } from './bridge-handlers.js';
import { MAX_EXTERNAL_URL_LENGTH } from './external-links.js';
import { isRendererUrl } from './renderer-location.js';
import { MAX_DEEP_LINK_LENGTH } from './vpn-clients.js';

/** The largest JSON body the renderer may send (the API's own bodies are far smaller). */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;
const MAX_SERVER_URL_LENGTH = 2048;

const RequestBody = z.json().refine((body) => Buffer.byteLength(JSON.stringify(body)) <= MAX_REQUEST_BODY_BYTES, {
  error: `body is larger than ${MAX_REQUEST_BODY_BYTES} bytes`,
});

export const BridgeRequestArgument = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string().max(MAX_API_PATH_LENGTH).refine(isAllowedApiPath, { error: 'path must be a plain /api/ path, not the admin API' }),
    body: RequestBody.optional(),
  })
  .refine((call) => call.method !== 'GET' || call.body === undefined, { error: 'a GET request has no body' });

type Handle = (handlers: BridgeHandlers, args: unknown[]) => Promise<unknown>;

const noArguments = () => z.tuple([], { error: 'this method takes no arguments' });
const oneArgument = <T extends z.ZodType>(schema: T) => z.tuple([schema], { error: 'this method takes one argument' });

/** Each channel's arguments, and the handler that gets them once they are valid. */
function route<S extends z.ZodTuple>(args: S, call: (handlers: BridgeHandlers, parsed: z.infer<S>) => Promise<unknown>) {
  return { args, call: call as Handle };
}

const ROUTES = {
  [BRIDGE_CHANNELS.request]: route(oneArgument(BridgeRequestArgument), (h, [call]) => h.request(call)),
  [BRIDGE_CHANNELS.getServerUrl]: route(noArguments(), (h) => h.getServerUrl()),
  [BRIDGE_CHANNELS.setServerUrl]: route(oneArgument(z.string().max(MAX_SERVER_URL_LENGTH)), (h, [url]) => h.setServerUrl(url)),
  [BRIDGE_CHANNELS.detectClients]: route(noArguments(), (h) => h.detectClients()),
  [BRIDGE_CHANNELS.openDeepLink]: route(oneArgument(z.string().max(MAX_DEEP_LINK_LENGTH)), (h, [link]) => h.openDeepLink(link)),
  [BRIDGE_CHANNELS.openExternal]: route(oneArgument(z.string().max(MAX_EXTERNAL_URL_LENGTH)), (h, [url]) => h.openExternal(url)),
  [BRIDGE_CHANNELS.getUpdateStatus]: route(noArguments(), (h) => h.getUpdateStatus()),
  [BRIDGE_CHANNELS.restartToUpdate]: route(noArguments(), (h) => h.restartToUpdate()),
};

/** The channels the renderer invokes (`focus` and `updateReady` go the other way: main → renderer). */
export const INVOKE_CHANNELS = Object.keys(ROUTES);

/** True when the call comes from our window's main frame while it shows our renderer. */
export function isTrustedSender(event: IpcMainInvokeEvent, window: BrowserWindow | null, rendererUrl: string): boolean {
  try {
    const frame = event.senderFrame;
    if (!window || window.isDestroyed() || !frame) return false;
    return event.sender.id === window.webContents.id && frame.parent === null && isRendererUrl(frame.url, rendererUrl);
  } catch {
    // A frame that navigated away or closed meanwhile throws on access.
    return false;
  }
}

/** Registers every channel; returns a function that removes them. */
export function registerBridgeHandlers(handlers: BridgeHandlers, isTrusted: (event: IpcMainInvokeEvent) => boolean): () => void {
  for (const [channel, { args, call }] of Object.entries(ROUTES)) {
    ipcMain.handle(channel, async (event, ...received: unknown[]) => {
      if (!isTrusted(event)) throw new Error(`Refused ${channel}: the call did not come from the app's own page`);
      const parsed = args.safeParse(received);
      if (!parsed.success) throw new Error(`Refused ${channel}: ${z.prettifyError(parsed.error)}`);
      return call(handlers, parsed.data);
    });
  }
  return () => INVOKE_CHANNELS.forEach((channel) => ipcMain.removeHandler(channel));
}
