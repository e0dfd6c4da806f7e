import type { IncomingMessage } from 'node:http';
import { header, type HttpAnswer, safeDecode } from '../fake-http.js';
import { argText } from './args.js';
import { TelegramError, TEXT } from './errors.js';
import { errorAnswer } from './http.js';
import { callMethod } from './methods.js';
import { type Params, parseParams, readUpload } from './params.js';
import type { World } from './state.js';

/** One HTTP request: /bot<token>/<method> (HttpConnection.cpp:22-50), else 404 Not Found. */
export async function answerRequest(world: World, req: IncomingMessage, url: URL): Promise<HttpAnswer> {
  // td's HttpReader decodes the whole path before HttpConnection splits it at '/'
  const route = /^\/bot([^/]*)\/(.*)$/s.exec(safeDecode(url.pathname));
  if (!route) return errorAnswer(new TelegramError(404, TEXT.notFound));
  const token = route[1]!;
  let method = route[2]!;
  const body = await readUpload(req);
  if (body === null) return errorAnswer(new TelegramError(413, 'Request Entity Too Large'));
  let params: Params;
  try {
    params = parseParams(url, body, header(req, 'content-type'));
  } catch (error) {
    if (!(error instanceof TelegramError)) throw error;
    world.calls.push({ token, method, params: Object.fromEntries(url.searchParams), at: Date.now() });
    return errorAnswer(error);
  }
  if (method === '') method = argText(params, 'method'); // Query.cpp:41-43
  return callMethod(world, { token, method, params, socket: req.socket });
}
