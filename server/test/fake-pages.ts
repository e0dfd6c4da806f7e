import type { IncomingMessage } from 'node:http';

/** What the payment fakes (Stripe, BTCPay) share: their HTML pages' frame and reading a request body. */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A fake provider's page: `notice` says plainly, at the top, that nothing real happens there. */
export function fakePage(options: { title: string; style: string; notice: string; content: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(options.title)}</title>
<style>${options.style}</style>
</head>
<body>
<main>
<p class="test-mode" role="note">${options.notice}</p>
${options.content}
</main>
</body>
</html>
`;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body as text, or null when it is over 1 MiB. */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
